import type { LimitLine, PerVisitor, StoragePart } from './extrapolate';
import { busiestShareAtScale, type KeyClassFigures, keepsBoundedState } from './object-keys';

/**
 * The hard limits each store is held to (ARCHITECTURE.md, "Data at scale", and Cloudflare's
 * documented limits), and the lines of the report built from what the run measured. Pure.
 */
const LIMITS = {
  /** A D1 database's size. */
  d1Bytes: 10e9,
  /** D1 runs one statement at a time; the goal keeps the peak at half of ~1,000 a second. */
  d1StatementsPerSecond: 500,
  /** What one Durable Object serves. */
  objectRequestsPerSecond: 1000,
  /** A SQLite-backed Durable Object's size. */
  objectBytes: 10e9,
  /** One queue's throughput. */
  queueMessagesPerSecond: 5000,
  /** One queue message. */
  queueMessageBytes: 128 * 1024,
} as const;

export interface TableFigures {
  table: string;
  bytesPerVisitor: PerVisitor;
  /** Null: nothing in the code deletes its rows. */
  retentionDays: number | null;
}

export interface D1Figures {
  statements: PerVisitor;
  reads: PerVisitor;
  writes: PerVisitor;
  rowsRead: PerVisitor;
  rowsWritten: PerVisitor;
  /** The database's size before the journeys: schema and seeds, not visitors. */
  baseBytes: number;
  tables: TableFigures[];
}

export interface KeyClassLoad extends KeyClassFigures {
  requestsPerVisitor: PerVisitor;
  bytesPerVisitor: PerVisitor;
  /** A fixed set's bytes by table, where a replay weighed them (their sum is bytesPerVisitor). */
  tables?: TableFigures[];
}

export interface QueueFigures {
  messages: PerVisitor;
  bytes: PerVisitor;
  largestMessageBytes: number;
}

export interface Measured {
  d1: Record<string, D1Figures>;
  durableObjects: Record<string, KeyClassLoad[]>;
  queues: Record<string, QueueFigures>;
}

export interface Assumptions {
  /** The share of all visitors on the busiest address, number block or card in the peak hour. */
  sharedKeyShare: number;
}

/** A count per visitor of the whole store, held as a rate against a limit per second. */
function rateLine(store: string, what: string, limit: number, perVisitor: PerVisitor): LimitLine {
  return { store, what, limit, unit: '/s', demand: { kind: 'rate', perVisitor, share: 1 } };
}

function d1Lines(binding: string, figures: D1Figures): LimitLine[] {
  const parts: StoragePart[] = figures.tables.map((table, at) => ({
    label: table.table,
    bytesPerVisitor: table.bytesPerVisitor,
    retentionDays: table.retentionDays,
    // The schema's pages are counted once, on the first part.
    ...(at === 0 ? { fixedBytes: figures.baseBytes } : {}),
  }));
  return [
    rateLine(
      `D1 ${binding}`,
      'statements at peak (one writer)',
      LIMITS.d1StatementsPerSecond,
      figures.statements,
    ),
    {
      store: `D1 ${binding}`,
      what: 'database size',
      limit: LIMITS.d1Bytes,
      unit: 'B',
      demand: {
        kind: 'storage',
        parts: parts.length > 0 ? parts : [zeroPart(figures.baseBytes)],
      },
    },
  ];
}

function zeroPart(fixedBytes: number): StoragePart {
  return {
    label: 'schema',
    bytesPerVisitor: { lookup: 0, paying: 0 },
    retentionDays: 0,
    fixedBytes,
  };
}

function objectLines(
  binding: string,
  classes: readonly KeyClassLoad[],
  assumptions: Assumptions,
): LimitLine[] {
  return classes.flatMap((figures): LimitLine[] => {
    const store = `DO ${binding} ${figures.keyClass}`;
    const share = busiestShareAtScale(figures, assumptions.sharedKeyShare);
    const requests: LimitLine =
      figures.kind === 'visitor'
        ? {
            store,
            what: "busiest object's requests (one visitor's own)",
            limit: LIMITS.objectRequestsPerSecond,
            unit: '/s',
            demand: { kind: 'fixed-rate', perSecond: figures.peakPerSecond },
            note: 'the most one object got within a second in the run',
          }
        : {
            store,
            what: `busiest object's requests (${figures.kind})`,
            limit: LIMITS.objectRequestsPerSecond,
            unit: '/s',
            demand: { kind: 'rate', perVisitor: figures.requestsPerVisitor, share },
            note:
              figures.kind === 'shared-key'
                ? `assumes the busiest key carries ${formatShare(share)} of visitors`
                : `the busiest of ${figures.objects} objects takes ${formatShare(share)}`,
          };
    const storage: LimitLine =
      figures.kind === 'fixed-set' && !keepsBoundedState(figures.keyClass)
        ? {
            store,
            what: "busiest object's size (kept to the horizon)",
            limit: LIMITS.objectBytes,
            unit: 'B',
            demand: {
              kind: 'storage',
              // By table where weighed, each kept its own days; else the whole to the horizon.
              parts: figures.tables?.length
                ? figures.tables.map((table) => ({
                    label: table.table,
                    bytesPerVisitor: table.bytesPerVisitor,
                    retentionDays: table.retentionDays,
                    share,
                  }))
                : [
                    {
                      label: figures.keyClass,
                      bytesPerVisitor: figures.bytesPerVisitor,
                      retentionDays: null,
                      share,
                    },
                  ],
            },
          }
        : {
            store,
            what: keepsBoundedState(figures.keyClass)
              ? 'largest object (one state of a fixed size)'
              : 'largest object (bounded by its own window)',
            limit: LIMITS.objectBytes,
            unit: 'B',
            demand: { kind: 'size', bytes: figures.largestBytes ?? 0 },
          };
    return [requests, storage];
  });
}

function queueLines(binding: string, figures: QueueFigures): LimitLine[] {
  return [
    rateLine(`Queue ${binding}`, 'messages', LIMITS.queueMessagesPerSecond, figures.messages),
    {
      store: `Queue ${binding}`,
      what: 'largest message',
      limit: LIMITS.queueMessageBytes,
      unit: 'B',
      demand: { kind: 'size', bytes: figures.largestMessageBytes },
    },
  ];
}

export function formatShare(share: number): string {
  return `${Number((share * 100).toPrecision(3))} %`;
}

/** Every hard-limit line of the report, store by store. */
export function limitLines(measured: Measured, assumptions: Assumptions): LimitLine[] {
  return [
    ...Object.entries(measured.d1).flatMap(([binding, figures]) => d1Lines(binding, figures)),
    ...Object.entries(measured.durableObjects).flatMap(([binding, classes]) =>
      objectLines(binding, classes, assumptions),
    ),
    ...Object.entries(measured.queues).flatMap(([binding, figures]) =>
      queueLines(binding, figures),
    ),
  ];
}
