import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { D1Database } from '@cloudflare/workers-types';
import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { FRESH_APP_PATH } from '../worker/dev/fresh-app-route';
import { BUILT_BUNDLES, type BuiltBundle } from './built-bundles';
import { applyMigrations } from './d1-migrations';
import { DATABASES_WORKER_NAME, databaseOverFetch, databasesWorker } from './database-over-fetch';
import { WRANGLER_CONFIG } from './local-platform';
import { isMiniflareSyncProxyRace } from './miniflare-proxy-race';

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
   * in workerd's Durable Objects, whose storage one call deletes, and the files of those no
   * longer running are removed; the D1 databases' migrated files are then copied back, the app
   * is built again (worker/dev/fresh-app-route.ts) and the logs forgotten. Waits first for the
   * worker to fall quiet, so what the last requests left to finish (a queue batch, a waitUntil)
   * lands before the wipe rather than after it.
   */
  reset(): Promise<void>;
  /**
   * Ends every Durable Object, keeping what it stored (only with `resettable`), as workerd ends
   * one left idle for a minute or so: what `reset()` must reach as well.
   */
  endObjects(): Promise<void>;
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
   * module, whose one request deletes every running Durable Object's storage in the process,
   * and storage in a folder of the worker's own, whose D1 files start as a copy of the process's
   * migrated ones (migratedDatabases) rather than migrated again.
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
  /**
   * false: the queues have no consumer, as on a deploy whose consumer is missing or failing: `POST
   * /e` still takes batches, and nothing reaches the archive (`npm run smoke` must say so).
   */
  queueConsumers?: false;
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
 * worker's. `/abort` only ends every object, which closes the D1 databases' files.
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
  async fetch(request) {
    if (new URL(request.url).pathname === '/abort') await unsafe.abortAllDurableObjects();
    else await unsafe.deleteAllDurableObjects();
    return new Response(null, { status: 204 });
  },
};`,
    },
  ],
};

async function storageReset(mf: Miniflare, path: '/abort' | '/delete'): Promise<void> {
  const resetter = await mf.getWorker('storage-reset');
  const answer = await resetter.fetch(`http://storage-reset${path}`);
  if (answer.status !== 204) throw new Error(`storage reset ${path} answered ${answer.status}`);
}

/**
 * The D1 databases' files as the migrations leave them, copied from the process's first
 * resettable worker once migrated: each later one starts with a copy, and each reset copies
 * them back, rather than running the three migrations folders again (scripts/d1-migrations.ts).
 */
let migratedD1: string | undefined;

/**
 * Where this process keeps its resettable workers' storage (KV, R2, D1, Durable Objects, each
 * in a folder of Miniflare's naming) and the migrated databases: one folder, removed as the
 * process exits. A test process stopped by a signal exits without it, so each process first
 * removes the folders of processes that are gone.
 */
const STORAGE_ROOT_PREFIX = 'geofunnel-storage-';
let storageRoot: string | undefined;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The processes with a file open under `folder` (Linux's /proc). */
function processesHolding(folder: string): number[] {
  const holding: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const fds = readdirSync(`/proc/${pid}/fd`);
      if (fds.some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(folder))) {
        holding.push(Number(pid));
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return holding;
}

/**
 * Removes the storage folders of test processes that are gone, and ends a workerd still holding
 * one: Vitest may kill a test process outright at the end of a run, before its workerds are
 * stopped, and workerd outlives its parent. Run by each process's first resettable worker and
 * by the browser project's teardown (test/browser/global-setup.ts).
 */
export function sweepEndedStorage(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.slice(STORAGE_ROOT_PREFIX.length));
    if (!name.startsWith(STORAGE_ROOT_PREFIX) || !(pid > 0) || isRunning(pid)) continue;
    const folder = join(tmpdir(), name);
    for (const holder of processesHolding(folder)) process.kill(holder, 'SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
}

function processStorageRoot(): string {
  if (storageRoot) return storageRoot;
  sweepEndedStorage();
  const root = join(tmpdir(), `${STORAGE_ROOT_PREFIX}${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root);
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  storageRoot = root;
  return root;
}

const newStorageFolder = () => mkdtempSync(join(processStorageRoot(), 'worker-'));

/** Miniflare's folder of the D1 databases, in a worker's storage folder. */
const d1Of = (storage: string) => join(storage, 'd1');

/**
 * What an object stored, not a namespace's `metadata.sqlite`, which workerd keeps open for as
 * long as it runs: copied over or removed, it would change under it.
 */
const isStoredFile = (path: string) => !basename(path).startsWith('metadata.sqlite');

/** The process's migrated databases, into a resettable worker's storage. */
function copyMigrated(storage: string): void {
  if (!migratedD1) throw new Error('no migrated databases to copy yet');
  cpSync(migratedD1, d1Of(storage), { recursive: true, filter: isStoredFile });
  tally('copy');
}

/**
 * Removes every object's stored files. workerd's deletion (`/delete`) reaches only the objects
 * running: an object idle for a minute or so is ended by workerd, and its storage outlived the
 * deletion (a KV key, an R2 object written 90 s before a reset were still there after it). Once
 * the deletion has ended every object, none has a file open.
 */
function removeStoredFiles(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) removeStoredFiles(path);
    else if (isStoredFile(path)) rmSync(path, { force: true });
  }
}

/**
 * A resettable worker's databases, migrated: copied from the process's migrated files when it
 * has them; otherwise migrated here, then every object ended so the files are whole on disk,
 * and kept as the process's migrated files.
 */
async function migratedDatabases(mf: Miniflare, storage: string | undefined) {
  if (!storage) return migrateAll(mf);
  if (migratedD1) return databasesOf(mf);
  const databases = await migrateAll(mf);
  await storageReset(mf, '/abort');
  const copy = join(processStorageRoot(), 'migrated');
  cpSync(d1Of(storage), copy, { recursive: true, filter: isStoredFile });
  migratedD1 = copy;
  return databases;
}

/**
 * How long the worker must have printed nothing before a reset: a queue batch waits up to 1 s
 * here (promptConsumers), and the request that filled it printed its log line before.
 */
const QUIET_BEFORE_RESET_MS = 1_500;

/**
 * With BUILT_WORKER_TALLY naming a file, each workerd start and each migration of the three
 * databases adds a line to it (`start`, `migrate`; `copy` for a copy of migrated ones): how `npm test`'s figures of starts and
 * migration runs per browser run are counted (docs/testing.md).
 */
function tally(what: 'start' | 'migrate' | 'copy'): void {
  const file = process.env.BUILT_WORKER_TALLY;
  if (file) appendFileSync(file, `${what}\n`);
}

/** The worker's databases, through the databases' worker (database-over-fetch.ts). */
async function databasesOf(mf: Miniflare) {
  const fetcher = await mf.getWorker(DATABASES_WORKER_NAME);
  return {
    portalDb: databaseOverFetch(fetcher, 'PORTAL_DB'),
    eventsDb: databaseOverFetch(fetcher, 'EVENTS_DB'),
    configDb: databaseOverFetch(fetcher, 'CONFIG_DB'),
  };
}

async function migrateAll(mf: Miniflare): Promise<{ portalDb: D1Database; eventsDb: D1Database }> {
  const { portalDb, eventsDb, configDb } = await databasesOf(mf);
  tally('migrate');
  await Promise.all([
    applyMigrations(portalDb, PORTAL_MIGRATIONS),
    applyMigrations(eventsDb, EVENTS_MIGRATIONS),
    applyMigrations(configDb, CONFIG_MIGRATIONS),
  ]);
  return { portalDb, eventsDb };
}

/**
 * `reset()`'s storage: once the worker has fallen quiet, so what the last requests left running
 * (a waitUntil, a queue batch being consumed) has landed, every running object's storage deleted,
 * which ends them too, a queue batch still waiting for its consumer with them; then the files of
 * objects no longer running removed (removeStoredFiles), and the migrated databases copied back.
 */
async function emptyStorage(
  mf: Miniflare,
  storage: string,
  lastOutputAt: () => number,
): Promise<void> {
  for (let quiet = Date.now() - lastOutputAt(); quiet < QUIET_BEFORE_RESET_MS; ) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_BEFORE_RESET_MS - quiet));
    quiet = Date.now() - lastOutputAt();
  }
  await storageReset(mf, '/delete');
  removeStoredFiles(storage);
  copyMigrated(storage);
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
    queueConsumers:
      options.queueConsumers === false ? undefined : promptConsumers(declared.queueConsumers),
    bindings: {
      ...declared.bindings,
      // Every config write shows on the next request.
      CONFIG_CACHE_TTL_MS: '0',
      ...options.bindings,
    },
  };
  const storage = options.resettable ? newStorageFolder() : undefined;
  if (storage && migratedD1) copyMigrated(storage);
  const mf = new Miniflare({
    workers: [
      worker,
      databasesWorker(declared),
      ...(options.resettable ? [STORAGE_RESET_WORKER] : []),
    ],
    defaultPersistRoot: storage,
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
  tally('start');
  const entryUrl = await mf.ready;
  const url = options.workerAlone ? await mf.unsafeGetDirectURL() : entryUrl;
  const { portalDb, eventsDb } = await setUpOrDispose(mf, () => migratedDatabases(mf, storage));
  let kv = await mf.getKVNamespace('FUNNEL_CONFIG');
  const built: BuiltWorker = {
    url: new URL(url.href.replace('127.0.0.1', 'localhost')),
    logs,
    portalDb,
    eventsDb,
    putConfig: (key, value) => kv.put(key, JSON.stringify(value)),
    deleteConfig: (key) => kv.delete(key),
    bucket: async (binding) => (await mf.getR2Bucket(binding)) as unknown as R2Bucket,
    async reset() {
      if (!storage) throw new Error('reset() needs a worker started resettable');
      await emptyStorage(mf, storage, () => lastOutputAt);
      // Handles of the bindings asked anew: Miniflare's proxy keeps those it handed out in an
      // object of its own, which the deletion ends too, and a handle from before then named
      // nothing there, or something else (AssertionError: false == true, seen in a full run).
      ({ portalDb: built.portalDb, eventsDb: built.eventsDb } = await databasesOf(mf));
      kv = await mf.getKVNamespace('FUNNEL_CONFIG');
      // The copied databases answer, through the handle a test reads them with.
      await built.portalDb.prepare('SELECT COUNT(*) FROM d1_migrations').first();
      const fresh = await fetch(new URL(FRESH_APP_PATH, url), { method: 'POST' });
      if (fresh.status !== 204) throw new Error(`${FRESH_APP_PATH} answered ${fresh.status}`);
      logs.length = 0;
    },
    endObjects: () => storageReset(mf, '/abort'),
    async scheduled(cron, scheduledTime) {
      const worker = await mf.getWorker();
      const result = await worker.scheduled({ cron, scheduledTime: new Date(scheduledTime) });
      if (result.outcome !== 'ok') throw new Error(`the scheduled run ended ${result.outcome}`);
    },
    async stop() {
      await mf.dispose();
      if (storage) rmSync(storage, { recursive: true, force: true });
    },
  };
  return built;
}
