import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import ts from 'typescript';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { DEFAULT_CONFIG_TTL_MS } from '../../../worker/config/load';
import { BUILT_BUNDLES } from '../../built-bundles';
import { collectJsonLines, setUpOrDispose } from '../../built-worker';
import { applyMigrations } from '../../d1-migrations';
import { WRANGLER_CONFIG } from '../../local-platform';
import { benchContent, benchPicture, benchPictureObject } from '../bench-content';
import { benchExperimentsDocument } from '../bench-experiments';
import {
  type BindingKinds,
  COUNTS_PATH,
  type DataCounts,
  OBJECT_STORAGE_PATH,
  REPLAY_PATH,
} from './counting';
import { BENCH_LIFECYCLE_KEY } from './money-events';
import { benchQuestions, quizFirst } from './quiz';
import { BENCH_SAVE_OFFER, BENCH_SAVE_OFFER_TEST, BENCH_SUBSCRIBER_LINK_KEY } from './save-offer';
import { type ArchiveTally, BENCH_VITALS_SAMPLE_RATE, tallyArchive } from './vitals';

const HERE = dirname(fileURLToPath(import.meta.url));
const BUNDLE = resolve(BUILT_BUNDLES.production);
const BUNDLE_DIR = dirname(BUNDLE);

/** The `.sql` files wrangler wrote beside the bundle, which it imports as text. */
async function textModulesBeside() {
  const names = (await readdir(BUNDLE_DIR)).filter((name) => name.endsWith('.sql'));
  return Promise.all(
    names.map(async (name) => ({
      type: 'Text' as const,
      path: join(BUNDLE_DIR, name),
      contents: await readFile(join(BUNDLE_DIR, name), 'utf8'),
    })),
  );
}

/**
 * The built production worker (dist/worker, what `npm run deploy` ships) with wrangler.toml's
 * top-level bindings, in workerd through Miniflare, every binding counted (./counting.ts), its
 * state persisted under `persistTo` so Durable Objects and databases can be weighed.
 */
export interface CountingWorker {
  url: URL;
  kinds: BindingKinds;
  /** Queue producer binding to queue name. */
  queueNames: Record<string, string>;
  counts(): Promise<DataCounts>;
  /** Each D1 database's size and each table's rows and payload bytes, read past the counting. */
  d1Storage(): Promise<Record<string, D1Storage>>;
  /** Each counted object's SQLite size in bytes (null where it cannot say), by binding. */
  objectStorage(
    ids: Record<string, string[]>,
  ): Promise<Record<string, Record<string, number | null>>>;
  /**
   * Replays a binding's recorded fixed-set calls `from`..`to`, `rounds` times, into a scratch
   * object: its SQLite size before and after, and the calls by method.
   */
  replay(options: { binding: string; from: number; to: number; rounds: number }): Promise<{
    before: number | null;
    after: number | null;
    /** Each table's payload growth in bytes (none where the object has no SQL). */
    tables?: Record<string, number>;
    calls: number;
    methods: Record<string, number>;
  }>;
  logs: Record<string, unknown>[];
  /** The event archive's lines, the field vitals' apart (./vitals.ts). */
  archive(): Promise<ArchiveTally>;
  stop(): Promise<void>;
}

export interface D1Storage {
  sizeBytes: number;
  tables: Record<string, { rows: number; payloadBytes: number }>;
}

const keysOf = (option: unknown): string[] =>
  option === undefined
    ? []
    : Array.isArray(option)
      ? option.map(String)
      : Object.keys(option as Record<string, unknown>);

function transpile(source: string): string {
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/** The entry workerd runs: the worker's exports, each handler and object class counted. */
function entryModule(kinds: BindingKinds): string {
  const classes = kinds.durableObjectClasses.map(
    (name) => `export const ${name} = countingObjectClass(production.${name});`,
  );
  return [
    "import * as production from './index.js';",
    "import { countingHandler, countingObjectClass } from './bench-counting.js';",
    'export default countingHandler(production.default);',
    ...classes,
  ].join('\n');
}

/** The top level of wrangler.toml: production's bindings, none of the development kit's. */
function productionBindings() {
  const declared = unstable_getMiniflareWorkerOptions(WRANGLER_CONFIG)
    .workerOptions as WorkerOptions;
  const config = unstable_readConfig({ config: WRANGLER_CONFIG });
  const objectBindings = (declared.durableObjects ?? {}) as Record<string, { className: string }>;
  const kinds: BindingKinds = {
    d1: keysOf(declared.d1Databases),
    durableObjects: Object.keys(objectBindings),
    queues: keysOf(declared.queueProducers),
    r2: keysOf(declared.r2Buckets),
    kv: keysOf(declared.kvNamespaces),
    durableObjectClasses: [
      ...new Set(Object.values(objectBindings).map((binding) => binding.className)),
    ],
  };
  const queueNames = Object.fromEntries(
    (config.queues.producers ?? []).map((producer: { binding: string; queue: string }) => [
      producer.binding,
      producer.queue,
    ]),
  );
  return { declared, config, kinds, queueNames };
}

/** The databases migrated and the config published, as production runs with them. */
async function seedStores(mf: Miniflare, config: ReturnType<typeof unstable_readConfig>) {
  for (const database of config.d1_databases) {
    const db = (await mf.getD1Database(database.binding)) as unknown as D1Database;
    if (database.migrations_dir) await applyMigrations(db, database.migrations_dir);
  }
  const kv = await mf.getKVNamespace('FUNNEL_CONFIG');
  // What production runs on: a published config, cached per isolate for the worker's TTL.
  await kv.put('split', JSON.stringify(DEFAULT_SPLIT));
  // Every flow opens with a quiz of two questions (./quiz.ts): what a quiz visitor costs.
  await kv.put('flows', JSON.stringify(quizFirst(DEFAULT_FLOWS)));
  // Six experiments running: the split and one in each other layer, every visitor in their
  // audience, so a visitor costs the most rows they can; the subscriber's page its save offer
  // test (./save-offer.ts).
  const experiments = benchExperimentsDocument();
  experiments.experiments.subscriber = BENCH_SAVE_OFFER_TEST;
  await kv.put('experiments', JSON.stringify(experiments));
  // The landing as a marketer's content draws it, with a picture of the library: what content
  // costs a visitor (KV and R2 reads) shows beside the rest.
  const picture = await benchPicture();
  const object = benchPictureObject(picture);
  const pictures = await mf.getR2Bucket('PICTURES');
  await pictures.put(object.key, object.bytes, object.options);
  const content = { ...benchContent(picture, BENCH_SAVE_OFFER), questions: benchQuestions() };
  await kv.put('content', JSON.stringify(content));
}

/** Each D1 database's size and each table's rows and payload bytes, read past the counting. */
async function readD1Storage(
  mf: Miniflare,
  bindings: readonly string[],
): Promise<Record<string, D1Storage>> {
  const storage: Record<string, D1Storage> = {};
  for (const binding of bindings) {
    const db = (await mf.getD1Database(binding)) as unknown as D1Database;
    const { results, meta } = await db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
      )
      .all<{ name: string }>();
    const tables: D1Storage['tables'] = {};
    for (const { name } of results) {
      const columns = await db.prepare(`PRAGMA table_info("${name}")`).all<{ name: string }>();
      const lengths = columns.results
        .map((column) => `ifnull(length(CAST("${column.name}" AS BLOB)), 0)`)
        .join(' + ');
      const row = await db
        .prepare(
          `SELECT count(*) AS rows, ifnull(sum(${lengths || '0'}), 0) AS bytes FROM "${name}"`,
        )
        .first<{ rows: number; bytes: number }>();
      tables[name] = { rows: row?.rows ?? 0, payloadBytes: row?.bytes ?? 0 };
    }
    storage[binding] = { sizeBytes: Number(meta.size_after ?? 0), tables };
  }
  return storage;
}

/** What the worker at `url` answers on `path`, read as JSON. */
async function askWorker<T>(mf: Miniflare, url: URL, path: string, body?: unknown): Promise<T> {
  const response = await mf.dispatchFetch(
    new URL(path, url),
    body === undefined ? undefined : { method: 'POST', body: JSON.stringify(body) },
  );
  return (await response.json()) as T;
}

export async function startCountingWorker(options: {
  persistTo: string;
  portalUrl: string;
}): Promise<CountingWorker> {
  const { declared, config, kinds, queueNames } = productionBindings();
  const consumers = (declared.queueConsumers ?? {}) as Record<string, object>;
  const logs: Record<string, unknown>[] = [];
  const counting = transpile(await readFile(join(HERE, 'counting.ts'), 'utf8'));
  const mf = new Miniflare({
    ...declared,
    name: 'geofunnel',
    modules: [
      { type: 'ESModule', path: join(BUNDLE_DIR, 'bench-entry.js'), contents: entryModule(kinds) },
      { type: 'ESModule', path: join(BUNDLE_DIR, 'bench-counting.js'), contents: counting },
      { type: 'ESModule', path: BUNDLE, contents: await readFile(BUNDLE, 'utf8') },
      ...(await textModulesBeside()),
    ],
    modulesRoot: BUNDLE_DIR,
    // A batch waits 1 s rather than 5, so the run drains sooner; the batches hold the same.
    queueConsumers: Object.fromEntries(
      Object.entries(consumers).map(([queue, consumer]) => [
        queue,
        { ...consumer, maxBatchTimeout: 1 },
      ]),
    ),
    bindings: {
      ...declared.bindings,
      ENVIRONMENT: 'production',
      // A secret every deployment sets (docs/operate.md): without it no route, first touch,
      // variant or user cookie is kept, and every page would choose them afresh.
      COOKIE_SIGNING_KEY: 'bench-cookie-signing-key',
      // Secrets every deployment sets too: each purchase's receipt carries a manage link
      // signed with the first, as production's does, and without it the run warned
      // `manage_link_not_made` for every charge.
      SUBSCRIBER_LINK_KEY: BENCH_SUBSCRIBER_LINK_KEY,
      RESUME_LINK_KEY: 'bench-resume-link-key',
      // The product API's lifecycle hook (./money-events.ts signs with the same key).
      LIFECYCLE_HMAC_KEY: BENCH_LIFECYCLE_KEY,
      CONFIG_CACHE_TTL_MS: String(DEFAULT_CONFIG_TTL_MS),
      PORTAL_URL: options.portalUrl,
      // Every visitor reports field vitals: the figures are their upper bound (./vitals.ts).
      VITALS_SAMPLE_RATE: BENCH_VITALS_SAMPLE_RATE,
      __BENCH_BINDINGS: kinds as unknown as Record<string, unknown>,
    },
    d1Persist: join(options.persistTo, 'd1'),
    durableObjectsPersist: join(options.persistTo, 'do'),
    kvPersist: join(options.persistTo, 'kv'),
    r2Persist: join(options.persistTo, 'r2'),
    host: '127.0.0.1',
    port: 0,
    cf: {},
    log: new Log(LogLevel.NONE),
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      collectJsonLines(stdout, logs);
      collectJsonLines(stderr, logs);
    },
  } as WorkerOptions & ConstructorParameters<typeof Miniflare>[0]);
  const url = await mf.ready;
  await setUpOrDispose(mf, () => seedStores(mf, config));
  return {
    url: new URL(url.href.replace('127.0.0.1', 'localhost')),
    kinds,
    queueNames,
    logs,
    counts: () => askWorker(mf, url, COUNTS_PATH),
    d1Storage: () => readD1Storage(mf, kinds.d1),
    objectStorage: (ids) => askWorker(mf, url, OBJECT_STORAGE_PATH, ids),
    replay: (options) => askWorker(mf, url, REPLAY_PATH, options),
    archive: () => tallyArchive(mf),
    stop: () => mf.dispose(),
  };
}
