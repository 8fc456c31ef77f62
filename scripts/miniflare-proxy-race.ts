/**
 * Miniflare's synchronous proxy can lose its answer under load: an assertion inside miniflare's
 * fetch-sync.ts (`message?.id === id`, printed as `false == true`), seen in fresh-clone CI runs
 * while two files started workerd beside the other projects, and once in a CLI's platform proxy
 * with three test files at a time. It goes through it where a proxy first reads a property (the
 * KV namespace's `put`, a worker's `fetch`) and in every D1 `prepare()`; the browser tests'
 * databases no longer do (database-over-fetch.ts). A built worker's start is tried again on it
 * (built-worker.ts); the CLIs say what it was (cli.ts).
 */
export function isMiniflareSyncProxyRace(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'AssertionError' &&
    (error.stack ?? '').includes('SynchronousFetcher')
  );
}
