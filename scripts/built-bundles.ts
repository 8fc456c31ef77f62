/**
 * The worker bundles `npm run build` writes, each with its esbuild metafile (bundle-meta.json)
 * beside it: the development entry (worker/dev.ts, with the embedded portal and the test gateway,
 * which the browser tests drive) and the production one (worker/index.ts, what `npm run deploy`
 * ships). Paths as in package.json's build script.
 */
export const BUILT_BUNDLES = {
  development: 'dist/dev-worker/dev.js',
  production: 'dist/worker/index.js',
} as const;

export type BuiltBundle = keyof typeof BUILT_BUNDLES;
