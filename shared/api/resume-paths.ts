/**
 * The resume link's paths (shared/api/resume.ts), apart so the page's button can name them
 * without loading the schema.
 */

/** Where the page asks for a link. */
export const RESUME_API_PATH = '/api/resume';
/** Where a link opens; the token follows as one path segment. */
export const RESUME_PAGE_PATH = '/resume';

/**
 * Where the resume page leaves, for the page it opens, which in-app browser the visitor came from
 * (`{"app":"instagram","os":"ios"}`): that page reports the way out completed, once.
 */
export const ESCAPE_COMPLETED_KEY = 'gf:in-app-escape';
