/**
 * The browser build's manifest (Vite's dist/client/.vite/manifest.json), imported as
 * `#client-manifest` (package.json "imports"). Bundlers read the file the build wrote; the type
 * checker reads this declaration instead, so `npm run check` does not depend on the build and
 * runs beside it.
 */
declare const manifest: Record<string, { file: string; imports?: string[]; css?: string[] }>;
export default manifest;
