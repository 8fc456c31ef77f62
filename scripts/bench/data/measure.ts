import type { DataCounts } from './counting';
import type { CountingWorker, D1Storage } from './counting-worker';
import type { PerVisitor } from './extrapolate';
import type { D1Figures, KeyClassLoad, Measured, QueueFigures, TableFigures } from './limit-lines';
import { groupByKeyClass, keyClass } from './object-keys';
import { retentionOf } from './retention';

/** Everything counted and weighed at one moment of the run. */
export interface Snapshot {
  counts: DataCounts;
  d1: Record<string, D1Storage>;
  objects: Record<string, Record<string, number | null>>;
}

export async function takeSnapshot(worker: CountingWorker): Promise<Snapshot> {
  const counts = await worker.counts();
  const ids = Object.fromEntries(
    Object.entries(counts.durableObjects).map(([binding, namespace]) => [
      binding,
      Object.keys(namespace.objects),
    ]),
  );
  return { counts, d1: await worker.d1Storage(), objects: await worker.objectStorage(ids) };
}

/** The three moments: before the journeys, after the lookup-only ones, after the paying ones. */
export interface Run {
  visitors: PerVisitor;
  before: Snapshot;
  afterLookups: Snapshot;
  afterPaying: Snapshot;
  /** Bytes a visitor adds to a fixed set's object, by binding, weighed by replay. */
  replayed?: Record<string, Replayed>;
}

/** Visitors each phase is replayed up to: enough that SQLite's 4 KB pages average out. */
const REPLAYED_VISITORS = 2000;

/**
 * What a visitor of each phase adds to a fixed set's object (the experiment shards): the
 * phase's recorded calls replayed as new visitors into a scratch object of the same class, until
 * about REPLAYED_VISITORS, its growth divided by them. A short run puts a handful of rows in each
 * of 64 objects, which SQLite holds in pages it had already: their size says nothing per visitor.
 */
export async function replayFixedSets(
  worker: CountingWorker,
  visitors: PerVisitor,
  [before, afterLookups, afterPaying]: [Snapshot, Snapshot, Snapshot],
): Promise<Record<string, Replayed>> {
  const bindings = Object.keys(afterPaying.counts.recordedCalls ?? {});
  const weighed: Record<string, Replayed> = {};
  for (const binding of bindings) {
    const at = (snapshot: Snapshot) => snapshot.counts.recordedCalls?.[binding] ?? 0;
    const phase = async (from: number, to: number, count: number): Promise<PhaseBytes> => {
      if (count === 0 || to === from) return { bytes: 0, tables: {} };
      const rounds = Math.ceil(REPLAYED_VISITORS / count);
      const {
        before: start,
        after: end,
        tables = {},
        calls,
        methods,
      } = await worker.replay({ binding, from, to, rounds });
      const byMethod = Object.entries(methods ?? {})
        .map(([method, n]) => `${method} ${Number((n / count).toFixed(2))}`)
        .join(', ');
      const bytes = start === null || end === null ? 0 : (end - start) / (rounds * count);
      const byTable = tablesOfReplay(binding, { bytes, tables }, { bytes: 0, tables: {} })
        .sort((a, b) => b.bytesPerVisitor.lookup - a.bytesPerVisitor.lookup)
        .map(({ table, bytesPerVisitor, retentionDays }) => {
          const kept = retentionDays === null ? '' : ` (${Number(retentionDays.toPrecision(3))} d)`;
          return `${table} ${bytesPerVisitor.lookup.toFixed(0)} B${kept}`;
        })
        .join(', ');
      console.log(
        `Weighed ${binding} by replaying ${calls} calls of ${count} visitors ${rounds} times:` +
          ` ${start ?? '?'} to ${end ?? '?'} bytes. Calls per visitor: ${byMethod || '-'}.` +
          (byTable ? ` Bytes per visitor by table: ${byTable}.` : ''),
      );
      return { bytes, tables };
    };
    const lookup = await phase(at(before), at(afterLookups), visitors.lookup);
    const paying = await phase(at(afterLookups), at(afterPaying), visitors.paying);
    weighed[binding] = {
      bytes: { lookup: lookup.bytes, paying: paying.bytes },
      tables: tablesOfReplay(binding, lookup, paying),
    };
  }
  return weighed;
}

/** A replayed phase: the object's growth per visitor, and each table's payload growth. */
interface PhaseBytes {
  bytes: number;
  tables: Record<string, number>;
}

/** What a visitor adds to a fixed set's object, in all and by table. */
export interface Replayed {
  bytes: PerVisitor;
  tables: TableFigures[];
}

/**
 * The object's growth per visitor shared among its tables as their payloads grew (indexes and
 * b-tree slack go with their rows), each with the retention the code gives it, so a table
 * emptied sooner than the object's horizon is held to its own days (./retention.ts).
 */
function tablesOfReplay(binding: string, lookup: PhaseBytes, paying: PhaseBytes): TableFigures[] {
  const shareOf = (phase: PhaseBytes, table: string) => {
    const grown = Object.values(phase.tables).reduce((sum, bytes) => sum + Math.max(0, bytes), 0);
    return grown > 0 ? (Math.max(0, phase.tables[table] ?? 0) / grown) * phase.bytes : 0;
  };
  const names = [...new Set([...Object.keys(lookup.tables), ...Object.keys(paying.tables)])];
  return names
    .map((table) => ({
      table,
      bytesPerVisitor: { lookup: shareOf(lookup, table), paying: shareOf(paying, table) },
      retentionDays: retentionOf(binding, table),
    }))
    .filter(({ bytesPerVisitor }) => bytesPerVisitor.lookup > 0 || bytesPerVisitor.paying > 0);
}

/** A figure of each phase divided by its visitors. */
function perVisitor(run: Run, read: (snapshot: Snapshot) => number): PerVisitor {
  const lookups = read(run.afterLookups) - read(run.before);
  const paying = read(run.afterPaying) - read(run.afterLookups);
  return {
    lookup: run.visitors.lookup > 0 ? lookups / run.visitors.lookup : 0,
    paying: run.visitors.paying > 0 ? paying / run.visitors.paying : 0,
  };
}

const payloadOf = (storage: D1Storage | undefined) =>
  Object.values(storage?.tables ?? {}).reduce((sum, table) => sum + table.payloadBytes, 0);

function d1Figures(run: Run, binding: string): D1Figures {
  const counted = (field: 'statements' | 'reads' | 'writes' | 'rowsRead' | 'rowsWritten') =>
    perVisitor(run, (snapshot) => snapshot.counts.d1[binding]?.[field] ?? 0);
  const before = run.before.d1[binding];
  const after = run.afterPaying.d1[binding];
  // Rows' payload undercounts a table's pages (indexes, b-tree slack): each table's share of the
  // database's growth is its share of the payload's growth.
  const payloadGrowth = payloadOf(after) - payloadOf(before);
  const sizeGrowth = (after?.sizeBytes ?? 0) - (before?.sizeBytes ?? 0);
  const overhead = payloadGrowth > 0 && sizeGrowth > 0 ? sizeGrowth / payloadGrowth : 1;
  const tables = Object.keys(after?.tables ?? {}).map((table) => ({
    table,
    bytesPerVisitor: scale(
      perVisitor(run, (snapshot) => snapshot.d1[binding]?.tables[table]?.payloadBytes ?? 0),
      overhead,
    ),
    retentionDays: retentionOf(binding, table),
  }));
  return {
    statements: counted('statements'),
    reads: counted('reads'),
    writes: counted('writes'),
    rowsRead: counted('rowsRead'),
    rowsWritten: counted('rowsWritten'),
    baseBytes: before?.sizeBytes ?? 0,
    tables,
  };
}

const scale = (value: PerVisitor, by: number): PerVisitor => ({
  lookup: value.lookup * by,
  paying: value.paying * by,
});

function objectFigures(run: Run, binding: string): KeyClassLoad[] {
  const final = run.afterPaying.counts.durableObjects[binding]?.objects ?? {};
  const sizes = run.afterPaying.objects[binding] ?? {};
  const all = Object.entries(final).map(([id, object]) => ({
    ...object,
    storageBytes: sizes[id] ?? null,
    id,
  }));
  const classes = groupByKeyClass(all, run.visitors.lookup + run.visitors.paying);
  return classes.map((figures) => {
    const members = all.filter((object) => keyClass(object.name) === figures.keyClass);
    const sum = (read: (id: string) => number) =>
      members.reduce((total, member) => total + read(member.id), 0);
    return {
      ...figures,
      requestsPerVisitor: perVisitor(run, (snapshot) =>
        sum((id) => snapshot.counts.durableObjects[binding]?.objects[id]?.requests ?? 0),
      ),
      ...(figures.kind === 'fixed-set' && run.replayed?.[binding]
        ? { bytesPerVisitor: run.replayed[binding].bytes, tables: run.replayed[binding].tables }
        : {
            bytesPerVisitor: perVisitor(run, (snapshot) =>
              sum((id) => snapshot.objects[binding]?.[id] ?? 0),
            ),
          }),
    };
  });
}

function queueFigures(run: Run, binding: string): QueueFigures {
  return {
    messages: perVisitor(run, (snapshot) => snapshot.counts.queues[binding]?.messages ?? 0),
    bytes: perVisitor(run, (snapshot) => snapshot.counts.queues[binding]?.bytes ?? 0),
    largestMessageBytes: run.afterPaying.counts.queues[binding]?.largestMessageBytes ?? 0,
  };
}

export function measured(run: Run, kinds: CountingWorker['kinds']): Measured {
  return {
    d1: Object.fromEntries(kinds.d1.map((binding) => [binding, d1Figures(run, binding)])),
    durableObjects: Object.fromEntries(
      kinds.durableObjects.map((binding) => [binding, objectFigures(run, binding)]),
    ),
    queues: Object.fromEntries(
      kinds.queues.map((binding) => [binding, queueFigures(run, binding)]),
    ),
  };
}

/** R2 and KV, which have no hard limit a visitor's count reaches: reported, not judged. */
export function otherStores(run: Run, kinds: CountingWorker['kinds']) {
  return {
    r2: Object.fromEntries(
      kinds.r2.map((binding) => [
        binding,
        {
          puts: perVisitor(run, (s) => s.counts.r2[binding]?.puts ?? 0),
          putBytes: perVisitor(run, (s) => s.counts.r2[binding]?.putBytes ?? 0),
          reads: perVisitor(run, (s) => s.counts.r2[binding]?.reads ?? 0),
          maxPutsPerKey: run.afterPaying.counts.r2[binding]?.maxPutsPerKey ?? 0,
        },
      ]),
    ),
    kv: Object.fromEntries(
      kinds.kv.map((binding) => [
        binding,
        {
          reads: perVisitor(run, (s) => s.counts.kv[binding]?.reads ?? 0),
          writes: perVisitor(run, (s) => s.counts.kv[binding]?.writes ?? 0),
          maxWritesPerKey: run.afterPaying.counts.kv[binding]?.maxWritesPerKey ?? 0,
        },
      ]),
    ),
  };
}

/** Waits until every queue's consumer has had every message sent to it, and all is quiet. */
export async function drained(worker: CountingWorker, timeoutMs = 90_000): Promise<boolean> {
  const started = Date.now();
  let last = '';
  let quietSince = Date.now();
  // Beacons sent as the last pages closed are still on their way.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  while (Date.now() - started < timeoutMs) {
    const counts = await worker.counts();
    const text = JSON.stringify(counts);
    if (text !== last) {
      last = text;
      quietSince = Date.now();
    }
    const delivered = Object.entries(counts.queues).every(
      ([binding, queue]) =>
        (counts.consumers[worker.queueNames[binding] ?? binding]?.messages ?? 0) >= queue.messages,
    );
    if (delivered && Date.now() - quietSince >= 2500) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}
