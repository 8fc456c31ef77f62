/**
 * Runs inside workerd, not Node: the data benchmark (./run.ts) loads this file, transpiled, as a
 * module beside the built production worker, and a generated entry hands it the worker's
 * exports. It puts counting proxies around every binding of a kind the bench knows (D1, Durable
 * Object namespaces, queue producers, R2 buckets, KV) in the `env` of every fetch, queue and
 * scheduled call and of every Durable Object, so whatever the worker does with a store is
 * counted, whichever code path does it. Which bindings are of which kind comes from wrangler.toml
 * (the `__BENCH_BINDINGS` binding), so a binding added there is counted without a change here.
 * `GET /__bench/data/counts` answers what was counted so far; no other route is added.
 */

/** Binding names by kind, from wrangler.toml's top level (the production worker's). */
export interface BindingKinds {
  d1: string[];
  durableObjects: string[];
  queues: string[];
  r2: string[];
  kv: string[];
  /** Durable Object class names the worker exports, for their own `env`. */
  durableObjectClasses: string[];
}

export interface D1Counts {
  statements: number;
  /** Statements that changed nothing (by their SQL and by rows_written). */
  reads: number;
  writes: number;
  rowsRead: number;
  rowsWritten: number;
  /** The database's size after the latest statement, as D1's result meta reports it. */
  sizeAfter: number | null;
  /** Statements by their SQL's first words, for seeing where they come from. */
  bySql: Record<string, number>;
}

export interface ObjectCounts {
  /** The name the object was addressed by (idFromName, getByName), or null. */
  name: string | null;
  requests: number;
  /** The most requests this object got within any one second. */
  peakPerSecond: number;
}

export interface NamespaceCounts {
  /** Stub calls (RPC methods and fetch), each one request to the object. */
  requests: number;
  objects: Record<string, ObjectCounts>;
}

export interface QueueCounts {
  messages: number;
  /** Message bodies' bytes, as JSON (what a queue meters a message by). */
  bytes: number;
  largestMessageBytes: number;
  /** send and sendBatch calls. */
  calls: number;
}

export interface ConsumerCounts {
  batches: number;
  deliveries: number;
  /** Messages delivered at least once. */
  messages: number;
  /** Deliveries of a message after its first. */
  retries: number;
}

export interface R2Counts {
  puts: number;
  putBytes: number;
  reads: number;
  deletes: number;
  /** The most puts one key got. */
  maxPutsPerKey: number;
}

export interface KvCounts {
  reads: number;
  writes: number;
  maxWritesPerKey: number;
}

export interface DataCounts {
  d1: Record<string, D1Counts>;
  durableObjects: Record<string, NamespaceCounts>;
  queues: Record<string, QueueCounts>;
  consumers: Record<string, ConsumerCounts>;
  r2: Record<string, R2Counts>;
  kv: Record<string, KvCounts>;
  /** How many calls to fixed-set objects each binding recorded so far (for `replay`). */
  recordedCalls?: Record<string, number>;
}

export const COUNTS_PATH = '/__bench/data/counts';
/** POST `{ binding: [object ids] }`: each object's SQLite size, asked of the object itself. */
export const OBJECT_STORAGE_PATH = '/__bench/data/object-storage';
const STORAGE_METHOD = '__benchStorageBytes';
/** The bench's own method of a counted object: each table's payload bytes. */
const TABLES_METHOD = '__benchTableBytes';
/** POST `{ binding, from, to, rounds }`: replays recorded fixed-set calls (see `replay`). */
export const REPLAY_PATH = '/__bench/data/replay';

type Handler = {
  fetch?: (request: Request, env: unknown, ctx: ExecutionContext) => Promise<Response>;
  queue?: (batch: MessageBatch, env: unknown, ctx: ExecutionContext) => Promise<void>;
  scheduled?: (event: ScheduledController, env: unknown, ctx: ExecutionContext) => Promise<void>;
};

type Env = Record<string, unknown> & { __BENCH_BINDINGS?: BindingKinds };

const counts: DataCounts = {
  d1: {},
  durableObjects: {},
  queues: {},
  consumers: {},
  r2: {},
  kv: {},
};

function entry<T>(table: Record<string, T>, key: string, fresh: () => T): T {
  let found = table[key];
  if (found === undefined) {
    found = fresh();
    table[key] = found;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// D1

const WRITE_VERBS = new Set(['insert', 'update', 'delete', 'replace', 'create', 'drop', 'alter']);

export function isWrite(sql: string): boolean {
  return WRITE_VERBS.has(sqlVerb(sql));
}

/** The statement's verb, past comments and a WITH clause's CTEs (`WITH x AS (...) INSERT`). */
export function sqlVerb(sql: string): string {
  const text = sql
    .replace(/--[^\n]*\n?/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .trim();
  if (/^with\b/i.test(text)) {
    const main = text.match(/\)\s*(select|insert|update|delete|replace)\b/i);
    return (main?.[1] ?? 'with').toLowerCase();
  }
  return (text.match(/^\w+/)?.[0] ?? '').toLowerCase();
}

/** A short label for a statement: its verb and the table it names first. */
function sqlLabel(sql: string): string {
  const verb = sqlVerb(sql);
  const table = sql.match(/\b(?:into|from|update|table)\s+([A-Za-z_][\w]*)/i)?.[1] ?? '?';
  return `${verb} ${table}`;
}

interface ResultMeta {
  rows_read?: number;
  rows_written?: number;
  size_after?: number;
}

function countStatement(binding: string, sql: string, meta: ResultMeta | undefined): void {
  const db = entry(counts.d1, binding, () => ({
    statements: 0,
    reads: 0,
    writes: 0,
    rowsRead: 0,
    rowsWritten: 0,
    sizeAfter: null,
    bySql: {},
  }));
  db.statements += 1;
  const written = meta?.rows_written ?? 0;
  if (isWrite(sql) || written > 0) db.writes += 1;
  else db.reads += 1;
  db.rowsRead += meta?.rows_read ?? 0;
  db.rowsWritten += written;
  if (typeof meta?.size_after === 'number') db.sizeAfter = meta.size_after;
  const label = sqlLabel(sql);
  db.bySql[label] = (db.bySql[label] ?? 0) + 1;
}

/** The real statement behind each counting one, for `batch`, which takes only real ones. */
const realStatements = new WeakMap<object, { real: D1PreparedStatement; sql: string }>();

function countingStatement(
  binding: string,
  real: D1PreparedStatement,
  sql: string,
): D1PreparedStatement {
  const wrapped = new Proxy(real, {
    get(target, property) {
      if (property === 'bind') {
        return (...values: unknown[]) => countingStatement(binding, target.bind(...values), sql);
      }
      if (property === 'run' || property === 'all') {
        return async () => {
          const result = await target[property]();
          countStatement(binding, sql, result.meta as ResultMeta);
          return result;
        };
      }
      if (property === 'first') {
        // first() reports no meta; D1 runs the whole statement either way, so all() is the same
        // work and says what it cost.
        return async (column?: string) => {
          const result = await target.all<Record<string, unknown>>();
          countStatement(binding, sql, result.meta as ResultMeta);
          const row = result.results[0];
          if (row === undefined) return null;
          return column === undefined ? row : (row[column] ?? null);
        };
      }
      if (property === 'raw') {
        return async (options?: { columnNames?: boolean }) => {
          countStatement(binding, sql, undefined);
          // biome-ignore lint/suspicious/noExplicitAny: raw's overloads take the same options.
          return target.raw(options as any);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  realStatements.set(wrapped, { real, sql });
  return wrapped;
}

function countingD1(binding: string, db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') {
        return (sql: string) => countingStatement(binding, target.prepare(sql), sql);
      }
      if (property === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          const known = statements.map(
            (statement) => realStatements.get(statement) ?? { real: statement, sql: '?' },
          );
          const results = await target.batch(known.map((statement) => statement.real));
          for (const [at, statement] of known.entries()) {
            countStatement(binding, statement.sql, results[at]?.meta as ResultMeta);
          }
          return results;
        };
      }
      if (property === 'exec') {
        return async (sql: string) => {
          const result = await target.exec(sql);
          for (const line of sql.split('\n').filter((text) => text.trim() !== ''))
            countStatement(binding, line, undefined);
          return result;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Durable Objects

/** Stub properties that are not requests to the object. */
const NOT_REQUESTS = new Set<string | symbol>(['then', 'id', 'name', 'dup', Symbol.dispose]);

function countRequest(binding: string, id: string, name: string | null): void {
  const namespace = entry(counts.durableObjects, binding, () => ({ requests: 0, objects: {} }));
  namespace.requests += 1;
  const object = entry(namespace.objects, id, () => ({ name, requests: 0, peakPerSecond: 0 }));
  object.name ??= name;
  object.requests += 1;
  const now = Date.now();
  const recent = entry(recentRequests, `${binding}/${id}`, () => [] as number[]);
  recent.push(now);
  while (recent.length > 0 && (recent[0] ?? now) <= now - 1000) recent.shift();
  object.peakPerSecond = Math.max(object.peakPerSecond, recent.length);
}

const recentRequests: Record<string, number[]> = {};

/**
 * The RPC calls made to objects of a fixed set (named `<prefix>:<n>`, e.g. the experiment
 * shards), in order, as JSON: replayed at volume into a scratch object of the same class, they
 * weigh what a visitor adds to such an object, which a short run's few rows per object cannot
 * (SQLite grows by whole pages).
 */
const recordedCalls: Record<string, { method: string; args: string }[]> = {};

function recordCall(
  binding: string,
  name: string | null,
  method: string | symbol,
  args: unknown[],
): void {
  if (name === null || typeof method !== 'string' || !/^[a-z_-]+:\d+$/i.test(name)) return;
  entry(recordedCalls, binding, () => []).push({ method, args: JSON.stringify(args) });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{12})/gi;

/**
 * Calls `from`..`to` of a binding's recorded calls, `rounds` times, into one scratch object:
 * each round gives every visitor uuid and subscription id a round's own value, so every round
 * adds new visitors rather than repeats. Answers the scratch object's size before and after, and
 * the calls by method.
 */
async function replay(request: Request, env: Env): Promise<Response> {
  const { binding, from, to, rounds } = (await request.json()) as {
    binding: string;
    from: number;
    to: number;
    rounds: number;
  };
  const namespace = env[binding] as DurableObjectNamespace;
  const stub = namespace.get(
    namespace.idFromName(`__bench_scratch:${from}-${to}`),
  ) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const size = async () => (await stub[STORAGE_METHOD]?.()) as number | null;
  const tables = async () => ((await stub[TABLES_METHOD]?.()) ?? {}) as Record<string, number>;
  const before = await size();
  const tablesBefore = await tables();
  const calls = (recordedCalls[binding] ?? []).slice(from, to);
  for (let round = 0; round < rounds; round++) {
    const tag = round.toString(16).padStart(12, '0');
    for (const call of calls) {
      const args = call.args
        .replace(UUID, (uuid, tail: string) => uuid.slice(0, -tail.length) + tag)
        .replace(/"sub_/g, `"sub_r${round}_`);
      await stub[call.method]?.(...(JSON.parse(args) as unknown[]));
    }
  }
  // Which calls a phase made, so a write that rides on another call (a first visit on the
  // exposure's) is seen to cost no request of its own.
  const methods: Record<string, number> = {};
  for (const call of calls) methods[call.method] = (methods[call.method] ?? 0) + 1;
  // Each table's payload growth, for the tables a shorter retention empties (./retention.ts).
  const grown = Object.fromEntries(
    Object.entries(await tables()).map(([table, bytes]) => [
      table,
      bytes - (tablesBefore[table] ?? 0),
    ]),
  );
  return Response.json({
    before,
    after: await size(),
    tables: grown,
    calls: calls.length,
    methods,
  });
}
const namesOfIds = new Map<string, string>();

function countingStub(binding: string, stub: DurableObjectStub, id: string): DurableObjectStub {
  return new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (NOT_REQUESTS.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        countRequest(binding, id, namesOfIds.get(id) ?? null);
        recordCall(binding, namesOfIds.get(id) ?? null, property, args);
        // Reflect.apply, not value.apply: on an RPC stub every property, `apply` too, is a call
        // to the object, and `.apply(target, …)` would try to send the stub itself.
        return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
}

function countingNamespace(
  binding: string,
  namespace: DurableObjectNamespace,
): DurableObjectNamespace {
  return new Proxy(namespace, {
    get(target, property) {
      if (property === 'idFromName') {
        return (name: string) => {
          const id = target.idFromName(name);
          namesOfIds.set(id.toString(), name);
          return id;
        };
      }
      if (property === 'get') {
        return (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) =>
          countingStub(binding, target.get(id, options), id.toString());
      }
      if (property === 'getByName') {
        return (name: string, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
          const id = target.idFromName(name);
          namesOfIds.set(id.toString(), name);
          return countingStub(binding, target.get(id, options), id.toString());
        };
      }
      if (property === 'jurisdiction') {
        return (jurisdiction: DurableObjectJurisdiction) =>
          countingNamespace(binding, target.jurisdiction(jurisdiction));
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Queues, R2, KV

const encoder = new TextEncoder();

function messageBytes(body: unknown): number {
  if (typeof body === 'string') return encoder.encode(body).byteLength;
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  return encoder.encode(JSON.stringify(body) ?? '').byteLength;
}

function countMessages(binding: string, bodies: unknown[]): void {
  const queue = entry(counts.queues, binding, () => ({
    messages: 0,
    bytes: 0,
    largestMessageBytes: 0,
    calls: 0,
  }));
  queue.calls += 1;
  for (const body of bodies) {
    const bytes = messageBytes(body);
    queue.messages += 1;
    queue.bytes += bytes;
    queue.largestMessageBytes = Math.max(queue.largestMessageBytes, bytes);
  }
}

function countingQueue(binding: string, queue: Queue): Queue {
  return new Proxy(queue, {
    get(target, property) {
      if (property === 'send') {
        return async (body: unknown, options?: QueueSendOptions) => {
          await target.send(body, options);
          countMessages(binding, [body]);
        };
      }
      if (property === 'sendBatch') {
        return async (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) => {
          const list = [...messages];
          await target.sendBatch(list, options);
          countMessages(
            binding,
            list.map((message) => message.body),
          );
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * `binding` with the methods `wrap` answers for replaced; other members as they are, methods
 * bound to the binding.
 */
function wrappingMethods<T extends object>(
  binding: T,
  wrap: (
    property: string | symbol,
    call: (...args: unknown[]) => unknown,
  ) => ((...args: never[]) => unknown) | undefined,
): T {
  return new Proxy(binding, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      const call = (...args: unknown[]) =>
        (value as (...a: unknown[]) => unknown).apply(target, args);
      return wrap(property, call) ?? value.bind(target);
    },
  });
}

/** One more write of `key` in `perKey`; answers how many it has had. */
function writeOfKey(perKey: Record<string, number>, key: string): number {
  perKey[key] = (perKey[key] ?? 0) + 1;
  return perKey[key];
}

const putsPerKey: Record<string, number> = {};

function countingR2(binding: string, bucket: R2Bucket): R2Bucket {
  const bucketCounts = () =>
    entry(counts.r2, binding, () => ({
      puts: 0,
      putBytes: 0,
      reads: 0,
      deletes: 0,
      maxPutsPerKey: 0,
    }));
  return wrappingMethods(bucket, (property, call) => {
    if (property === 'put') {
      return async (key: string, ...rest: unknown[]) => {
        const stored = (await call(key, ...rest)) as R2Object | null;
        const own = bucketCounts();
        own.puts += 1;
        own.putBytes += stored?.size ?? 0;
        own.maxPutsPerKey = Math.max(
          own.maxPutsPerKey,
          writeOfKey(putsPerKey, `${binding}/${key}`),
        );
        return stored;
      };
    }
    if (property === 'get' || property === 'head' || property === 'list') {
      return (...args: unknown[]) => {
        bucketCounts().reads += 1;
        return call(...args);
      };
    }
    if (property === 'delete') {
      return (...args: unknown[]) => {
        bucketCounts().deletes += 1;
        return call(...args);
      };
    }
    return undefined;
  });
}

const kvWritesPerKey: Record<string, number> = {};

function countingKv(binding: string, namespace: KVNamespace): KVNamespace {
  const own = () => entry(counts.kv, binding, () => ({ reads: 0, writes: 0, maxWritesPerKey: 0 }));
  return wrappingMethods(namespace, (property, call) => {
    if (property === 'put' || property === 'delete') {
      return (key: string, ...rest: unknown[]) => {
        const kv = own();
        kv.writes += 1;
        kv.maxWritesPerKey = Math.max(
          kv.maxWritesPerKey,
          writeOfKey(kvWritesPerKey, `${binding}/${key}`),
        );
        return call(key, ...rest);
      };
    }
    if (property === 'get' || property === 'getWithMetadata' || property === 'list') {
      return (...args: unknown[]) => {
        // A bulk get is one request but billed as a read of each key (Cloudflare's KV pricing).
        own().reads += Array.isArray(args[0]) ? args[0].length : 1;
        return call(...args);
      };
    }
    return undefined;
  });
}

// ---------------------------------------------------------------------------------------------
// The env and the entry

const countingEnvs = new WeakMap<object, Env>();

/** `env` with every binding of a known kind counted; the same object for the same env. */
export function countingEnv(env: Env): Env {
  const known = countingEnvs.get(env);
  if (known) return known;
  const kinds = env.__BENCH_BINDINGS;
  const wrapped: Env = { ...env };
  delete wrapped.__BENCH_BINDINGS;
  for (const name of kinds?.d1 ?? [])
    if (env[name]) wrapped[name] = countingD1(name, env[name] as D1Database);
  for (const name of kinds?.durableObjects ?? [])
    if (env[name]) wrapped[name] = countingNamespace(name, env[name] as DurableObjectNamespace);
  for (const name of kinds?.queues ?? [])
    if (env[name]) wrapped[name] = countingQueue(name, env[name] as Queue);
  for (const name of kinds?.r2 ?? [])
    if (env[name]) wrapped[name] = countingR2(name, env[name] as R2Bucket);
  for (const name of kinds?.kv ?? [])
    if (env[name]) wrapped[name] = countingKv(name, env[name] as KVNamespace);
  countingEnvs.set(env, wrapped);
  return wrapped;
}

const deliveredIds = new Set<string>();

function countBatch(batch: MessageBatch): void {
  const consumer = entry(counts.consumers, batch.queue, () => ({
    batches: 0,
    deliveries: 0,
    messages: 0,
    retries: 0,
  }));
  consumer.batches += 1;
  for (const message of batch.messages) {
    consumer.deliveries += 1;
    const key = `${batch.queue}/${message.id}`;
    if (deliveredIds.has(key)) consumer.retries += 1;
    else {
      deliveredIds.add(key);
      consumer.messages += 1;
    }
  }
}

/** The worker's default export with every handler given the counting env, plus the counts route. */
export function countingHandler(worker: Handler): Handler {
  return {
    async fetch(request, env, ctx) {
      const path = new URL(request.url).pathname;
      if (path === COUNTS_PATH) {
        const calls = Object.fromEntries(
          Object.entries(recordedCalls).map(([binding, list]) => [binding, list.length]),
        );
        return Response.json({ ...counts, recordedCalls: calls });
      }
      if (path === REPLAY_PATH) return replay(request, env as Env);
      if (path === OBJECT_STORAGE_PATH) return objectStorage(request, env as Env);
      if (!worker.fetch) return new Response('no fetch handler', { status: 500 });
      return worker.fetch(request, countingEnv(env as Env), ctx);
    },
    ...(worker.queue
      ? {
          async queue(batch, env, ctx) {
            try {
              await worker.queue?.(batch, countingEnv(env as Env), ctx);
            } finally {
              // Counted once handled, so a drained queue's consumer work is all counted.
              countBatch(batch);
            }
          },
        }
      : {}),
    ...(worker.scheduled
      ? {
          async scheduled(event, env, ctx) {
            await worker.scheduled?.(event, countingEnv(env as Env), ctx);
          },
        }
      : {}),
  };
}

/** Asks each object its size; the namespace is the real one, so nothing here is counted. */
async function objectStorage(request: Request, env: Env): Promise<Response> {
  const wanted = (await request.json()) as Record<string, string[]>;
  const sizes: Record<string, Record<string, number | null>> = {};
  for (const [binding, ids] of Object.entries(wanted)) {
    const namespace = env[binding] as DurableObjectNamespace | undefined;
    const own: Record<string, number | null> = {};
    sizes[binding] = own;
    for (const id of ids) {
      try {
        const stub = namespace?.get(namespace.idFromString(id)) as unknown as
          | Record<string, () => Promise<number | null>>
          | undefined;
        own[id] = (await stub?.[STORAGE_METHOD]?.()) ?? null;
      } catch {
        own[id] = null;
      }
    }
  }
  return Response.json(sizes);
}

type ObjectClass = new (ctx: DurableObjectState, env: Env) => object;

/**
 * A Durable Object class whose instances get the counting env (their own D1 and queue use), and
 * answer the bench their SQLite size (what storage is billed and limited by).
 */
export function countingObjectClass(original: ObjectClass): ObjectClass {
  return class extends original {
    readonly #state: DurableObjectState;
    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, countingEnv(env));
      this.#state = ctx;
    }
    [STORAGE_METHOD](): number | null {
      try {
        return this.#state.storage.sql.databaseSize;
      } catch {
        return null;
      }
    }
    /** Each table's payload (its columns' bytes, as D1's are weighed), or none without SQL. */
    [TABLES_METHOD](): Record<string, number> {
      try {
        const sql = this.#state.storage.sql;
        const names = sql
          .exec<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
          )
          .toArray();
        const bytes: Record<string, number> = {};
        for (const { name } of names) {
          const lengths = sql
            .exec<{ name: string }>(`PRAGMA table_info("${name}")`)
            .toArray()
            .map((column) => `ifnull(length(CAST("${column.name}" AS BLOB)), 0)`)
            .join(' + ');
          const [row] = sql
            .exec<{ bytes: number }>(
              `SELECT ifnull(sum(${lengths || '0'}), 0) AS bytes FROM "${name}"`,
            )
            .toArray();
          bytes[name] = row?.bytes ?? 0;
        }
        return bytes;
      } catch {
        return {};
      }
    }
  };
}
