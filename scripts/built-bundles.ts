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

/**
 * The modules wrangler writes beside a bundle rather than into it: the `.sql` files the worker
 * imports as text (worker/sql-modules.d.ts). Miniflare given a bundle's path finds them by this
 * rule, as wrangler's own configuration gives it (scripts/built-worker.ts).
 */
export const BESIDE_BUNDLE_RULES = [{ type: 'Text', include: ['**/*.sql'] }] as const;
