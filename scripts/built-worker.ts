import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { D1Database } from '@cloudflare/workers-types';
import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { FRESH_APP_PATH } from '../worker/dev/fresh-app-route';
import { BUILT_BUNDLES, type BuiltBundle } from './built-bundles';
import { applyMigrations } from './d1-migrations';
import { WRANGLER_CONFIG } from './local-platform';

const PORTAL_MIGRATIONS = 'portal/migrations';
const EVENTS_MIGRATIONS = 'worker/events-db/migrations';
const CONFIG_MIGRATIONS = 'worker/config/migrations';

/**
 * What wrangler.toml's development environment (the one `npm start` runs) declares, read by
 * wrangler itself: compatibility date and flags, vars, KV, D1, the Durable Object, the queues and
 * the assets. Nothing of it is written out again here, so a change to wrangler.toml reaches the
 * browser tests, the benchmark and the load run as it reaches `npm start`.
 */
function developmentWorkerOptions(): WorkerOptions {
  return unstable_getMiniflareWorkerOptions(WRANGLER_CONFIG, 'development')
    .workerOptions as WorkerOptions;
}

/** wrangler.toml's [assets], as Miniflare takes them: the router every request asks first. */
export function declaredAssets(): WorkerOptions['assets'] {
  return developmentWorkerOptions().assets;
}

/** wrangler.toml's consumers, but a batch waits 1 s rather than 5, so tests see events sooner. */
function promptConsumers(
  consumers: WorkerOptions['queueConsumers'],
): WorkerOptions['queueConsumers'] {
  if (!consumers || Array.isArray(consumers)) return consumers;
  return Object.fromEntries(
    Object.entries(consumers).map(([queue, consumer]) => [
      queue,
      { ...(consumer as object), maxBatchTimeout: 1 },
    ]),
  );
}

type BundleModules = Extract<WorkerOptions['modules'], unknown[]>;
const bundleModules = new Map<BuiltBundle, BundleModules>();

/**
 * A bundle and the `.sql` files beside it (BESIDE_BUNDLE_RULES), read once per process and handed
 * to Miniflare whole. Given only the bundle's path, Miniflare parses its 1.8 MB with acorn to find
 * those imports on every start: about half of a start's CPU in the test process, most of it
 * garbage collection.
 */
function modulesOf(bundle: BuiltBundle): BundleModules {
  const known = bundleModules.get(bundle);
  if (known) return known;
  const entry = BUILT_BUNDLES[bundle];
  const folder = dirname(entry);
  const modules: BundleModules = [
    { type: 'ESModule', path: basename(entry), contents: readFileSync(entry, 'utf8') },
    ...readdirSync(folder)
      .filter((file) => file.endsWith('.sql'))
      .map((file) => ({
        type: 'Text' as const,
        path: file,
        contents: readFileSync(join(folder, file), 'utf8'),
      })),
  ];
  bundleModules.set(bundle, modules);
  return modules;
}

/** The KV keys of the config sections (worker/config/document.ts SECTIONS). */
type ConfigKey = 'split' | 'flows' | 'routing' | 'experiments' | 'content';

/**
 * Serves a built worker (`npm run build`: dist/dev-worker or dist/worker, and dist/client) with
 * workerd through Miniflare, without wrangler dev's proxy in front. Used by the browser tests and
 * the benchmark.
 */
export interface BuiltWorker {
  url: URL;
  /** JSON log lines the worker printed (one per request, plus error lines). */
  logs: Record<string, unknown>[];
  /** The embedded portal's database, migrated (what `npm run portal` reads locally). */
  portalDb: D1Database;
  /**
   * The collector's database, migrated: its `events` table is the local store the queue
   * consumer fills from `POST /e` (what `npm run events` reads locally).
   */
  eventsDb: D1Database;
  putConfig(key: ConfigKey, value: unknown): Promise<void>;
  deleteConfig(key: ConfigKey): Promise<void>;
  /** An R2 bucket of the worker's (PICTURES), to put what a console upload would. */
  bucket(binding: string): Promise<R2Bucket>;
  /**
   * Empties every binding, as a worker just started would have them (only with `resettable`, and
   * the development bundle): KV, D1, R2, the Durable Objects and the queues all keep their data
   * in workerd's Durable Objects, which one call deletes; the D1 databases are then migrated
   * again, the app is built again (worker/dev/fresh-app-route.ts) and the logs forgotten. Waits
   * first for the worker to fall quiet, so what the last requests left to finish
   * (a queue batch, a waitUntil) lands before the wipe rather than after it.
   */
  reset(): Promise<void>;
  /**
   * Runs the worker's scheduled handler once for `cron` at `scheduledTime` (epoch ms), as
   * Cloudflare's trigger does (worker/scheduled.ts), and resolves once its waitUntil work is done.
   */
  scheduled(cron: string, scheduledTime: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What `setUp` makes of a started Miniflare; when it throws, the Miniflare is disposed before the
 * error goes on, so no workerd outlives a start that failed.
 */
export async function setUpOrDispose<T>(mf: Miniflare, setUp: () => Promise<T>): Promise<T> {
  try {
    return await setUp();
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}

/**
 * Keeps each JSON line a worker prints (its log lines) in `into`; `onLine` sees every line it
 * prints, JSON or not, first.
 */
export function collectJsonLines(
  stream: Readable,
  into: Record<string, unknown>[],
  onLine?: (line: string) => void,
) {
  let buffered = '';
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      onLine?.(line);
      const start = line.indexOf('{');
      if (start === -1) continue;
      try {
        into.push(JSON.parse(line.slice(start)) as Record<string, unknown>);
      } catch {
        // Not one of ours (workerd's own output).
      }
    }
  });
}

interface StartOptions {
  port?: number;
  bindings?: Record<string, string>;
  quiet?: boolean;
  /** Which entry's bundle; the development one unless said. */
  bundle?: BuiltBundle;
  /**
   * Serves the worker alone, as Cloudflare runs it: `url` is a socket of workerd's own bound to
   * the worker, with nothing in front. Neither wrangler.toml's [assets] router (on Cloudflare,
   * static files are answered before a worker runs) nor Miniflare's entry worker, which otherwise
   * takes every request first and rebuilds the request and the response in JavaScript of its own.
   * Pages only: the worker's own ASSETS binding is gone too.
   */
  workerAlone?: boolean;
  /**
   * Adds what `reset()` needs: a second worker in the same workerd, allowed workerd's unsafe
   * module, whose one request deletes every Durable Object's storage in the process.
   */
  resettable?: boolean;
  /**
   * `request.cf` of every request: none unless said. `wrangler dev` (`npm start`) gives one with a
   * country of its own (the machine's, or "US" offline), which a test of `npm start`'s behaviour
   * passes here.
   */
  cf?: Record<string, unknown>;
  /** Sees each line the worker prints, as it comes (the tests' check for secrets in the log). */
  onLogLine?: (line: string) => void;
}

/**
 * Miniflare's synchronous proxy (what a D1 handle's `prepare()` goes through) can lose its answer
 * under load: an assertion inside miniflare's fetch-sync.ts (`message?.id === id`), seen once in a
 * fresh-clone CI run while two files started workerd beside the other projects. A second start is
 * clean; any other failure is thrown as it is.
 */
export function isMiniflareSyncProxyRace(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'AssertionError' &&
    (error.stack ?? '').includes('SynchronousFetcher')
  );
}

export async function startBuiltWorker(options: StartOptions = {}): Promise<BuiltWorker> {
  try {
    return await startOnce(options);
  } catch (error) {
    if (!isMiniflareSyncProxyRace(error)) throw error;
    console.warn('Miniflare lost a proxy answer while starting the worker; starting it again');
    return startOnce(options);
  }
}

/**
 * A worker that only empties storage. workerd's unsafe module is what vitest-pool-workers' own
 * `reset()` calls; its deletion reaches every Durable Object of the process, so the local KV, D1,
 * R2 and queues, which Miniflare keeps in Durable Objects of its own, are emptied with the
 * worker's.
 */
const STORAGE_RESET_WORKER = {
  name: 'storage-reset',
  compatibilityDate: '2026-04-20',
  compatibilityFlags: ['unsafe_module'],
  modules: [
    {
      type: 'ESModule' as const,
      path: 'storage-reset.mjs',
      contents: `import unsafe from 'workerd:unsafe';
export default {
  async fetch() {
    await unsafe.deleteAllDurableObjects();
    return new Response(null, { status: 204 });
  },
};`,
    },
  ],
};

/**
 * How long the worker must have printed nothing before a reset: a queue batch waits up to 1 s
 * here (promptConsumers), and the request that filled it printed its log line before.
 */
const QUIET_BEFORE_RESET_MS = 1_500;

async function migrateAll(mf: Miniflare): Promise<{ portalDb: D1Database; eventsDb: D1Database }> {
  const portalDb = (await mf.getD1Database('PORTAL_DB')) as unknown as D1Database;
  const eventsDb = (await mf.getD1Database('EVENTS_DB')) as unknown as D1Database;
  const configDb = (await mf.getD1Database('CONFIG_DB')) as unknown as D1Database;
  // One after another: Miniflare's synchronous proxy, which a D1 handle's prepare() goes
  // through, lost an answer when three databases were migrated at once.
  await applyMigrations(portalDb, PORTAL_MIGRATIONS);
  await applyMigrations(eventsDb, EVENTS_MIGRATIONS);
  await applyMigrations(configDb, CONFIG_MIGRATIONS);
  return { portalDb, eventsDb };
}

async function startOnce(options: StartOptions): Promise<BuiltWorker> {
  const logs: Record<string, unknown>[] = [];
  let lastOutputAt = 0;
  const declared = developmentWorkerOptions();
  const worker: WorkerOptions = {
    ...declared,
    modules: modulesOf(options.bundle ?? 'development'),
    assets: options.workerAlone ? undefined : declared.assets,
    unsafeDirectSockets: options.workerAlone ? [{ host: '127.0.0.1', port: 0 }] : undefined,
    queueConsumers: promptConsumers(declared.queueConsumers),
    bindings: {
      ...declared.bindings,
      // Every config write shows on the next request.
      CONFIG_CACHE_TTL_MS: '0',
      ...options.bindings,
    },
  };
  const mf = new Miniflare({
    workers: options.resettable ? [worker, STORAGE_RESET_WORKER] : [worker],
    host: '127.0.0.1',
    port: options.port ?? 0,
    cf: options.cf ?? {},
    log: new Log(options.quiet ? LogLevel.NONE : LogLevel.WARN),
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      for (const stream of [stdout, stderr]) {
        collectJsonLines(stream, logs, options.onLogLine);
        stream.on('data', () => {
          lastOutputAt = Date.now();
        });
      }
    },
  });
  const entryUrl = await mf.ready;
  const url = options.workerAlone ? await mf.unsafeGetDirectURL() : entryUrl;
  const kv = await mf.getKVNamespace('FUNNEL_CONFIG');
  const databases = await setUpOrDispose(mf, () => migrateAll(mf));
  return {
    url: new URL(url.href.replace('127.0.0.1', 'localhost')),
    logs,
    ...databases,
    putConfig: (key, value) => kv.put(key, JSON.stringify(value)),
    deleteConfig: (key) => kv.delete(key),
    bucket: async (binding) => (await mf.getR2Bucket(binding)) as unknown as R2Bucket,
    async reset() {
      if (!options.resettable) throw new Error('reset() needs a worker started resettable');
      for (let quiet = Date.now() - lastOutputAt; quiet < QUIET_BEFORE_RESET_MS; ) {
        await new Promise((resolve) => setTimeout(resolve, QUIET_BEFORE_RESET_MS - quiet));
        quiet = Date.now() - lastOutputAt;
      }
      const resetter = await mf.getWorker('storage-reset');
      const emptied = await resetter.fetch('http://storage-reset/');
      if (emptied.status !== 204) throw new Error(`storage reset answered ${emptied.status}`);
      await migrateAll(mf);
      const fresh = await fetch(new URL(FRESH_APP_PATH, url), { method: 'POST' });
      if (fresh.status !== 204) throw new Error(`${FRESH_APP_PATH} answered ${fresh.status}`);
      logs.length = 0;
    },
    async scheduled(cron, scheduledTime) {
      const worker = await mf.getWorker();
      const result = await worker.scheduled({ cron, scheduledTime: new Date(scheduledTime) });
      if (result.outcome !== 'ok') throw new Error(`the scheduled run ended ${result.outcome}`);
    },
    stop: () => mf.dispose(),
  };
}
