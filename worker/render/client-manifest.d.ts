/**
 * The browser build's manifest as the worker needs it: the entries and the chunks they import,
 * cut down from Vite's by the build (scripts/worker-manifest.ts) to
 * dist/client/.vite/worker-manifest.json, imported as `#client-manifest` (package.json
 * "imports"). Bundlers read the file the build wrote; the type checker reads this declaration
 * instead, so `npm run check` does not depend on the build and runs beside it.
 */

/** One entry or chunk of the browser build: its file, the chunks it imports, its style sheets. */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

declare const manifest: Record<string, ManifestChunk>;
export default manifest;
