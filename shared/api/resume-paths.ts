/**
 * The resume link's paths (shared/api/resume.ts), apart so the page's button can name them
 * without loading the schema.
 */

/** Where the page asks for a link. */
export const RESUME_API_PATH = '/api/resume';
/** Where a link opens; the token follows as one path segment. */
export const RESUME_PAGE_PATH = '/resume';
