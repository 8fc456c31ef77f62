import type { SegmentDimension } from '../../../shared/console-api/experiment-results';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { EXPERIMENT_SHARD_COUNT, groupByShard, shardName } from '../assignment/assign';
import type { ExperimentShard } from './experiment-shard';
import {
  type ArmRow,
  addExperimentPhaseRows,
  addPhases,
  type DayRevenueRow,
  type DayRow,
  type ExperimentPhaseRows,
  type PhaseRows,
  type RevenueRow,
  splitRowsAsExperimentRows,
} from './phase-rows';
import {
  armRowsStatement,
  dayRevenueRowsStatement,
  dayRowsStatement,
  phasesStatement,
  revenueRowsStatement,
  type Statement,
} from './split-statements';

/**
 * Where the split test's rows live: every visitor in their shard (experiment-shard.ts,
 * assign.ts shardOfVisitor), and the visitors exposed before the shards existed in EVENTS_DB's
 * experiment tables, where they stay ("legacy" rows). Such a visitor never gets a shard row:
 * their gf_variant cookie pins them, and one drawn again (the cookie gone, or written before it
 * was signed, worker/request/cookies.ts) is found there on exposure
 * (exposure-store.ts recordVisitorExposures); their later steps and purchases are
 * applied to EVENTS_DB as long as it holds visitor rows. The results add both stores' totals.
 */
export interface ExperimentStores {
  /** wrangler.toml EXPERIMENT_SHARDS. */
  shards: DurableObjectNamespace<ExperimentShard>;
  /** EVENTS_DB. */
  legacy: D1Database;
}

export function experimentStores(env: {
  EXPERIMENT_SHARDS: DurableObjectNamespace<ExperimentShard>;
  EVENTS_DB: D1Database;
}): ExperimentStores {
  return { shards: env.EXPERIMENT_SHARDS, legacy: env.EVENTS_DB };
}

export function shardStub(stores: ExperimentStores, index: number) {
  return stores.shards.get(stores.shards.idFromName(shardName(index)));
}

/** `write` run once per shard the items' visitors live in, in parallel. */
export async function toEachShard<T>(
  stores: ExperimentStores,
  items: readonly T[],
  visitorOf: (item: T) => string,
  write: (shard: DurableObjectStub<ExperimentShard>, items: T[]) => Promise<void>,
): Promise<void> {
  await Promise.all(
    [...groupByShard(items, visitorOf)].map(([index, group]) =>
      write(shardStub(stores, index), group),
    ),
  );
}

/**
 * How long an isolate trusts its answer to "does EVENTS_DB hold visitor rows": a deployment
 * that never had any costs one statement per isolate this often, not one per event.
 */
const LEGACY_RECHECK_MS = 5 * 60 * 1000;

/**
 * The isolate's last answer, kept once it is in; the question itself, while asked, never is.
 * workerd ties a query to the request that asked it, and a query whose request ended first (a
 * batch whose shard write failed, answering before its check came back) never settles, neither
 * resolved nor rejected: kept, it would hang every later caller in the isolate, each page's
 * exposure write and each consumer batch, for the recheck's five minutes (a hung batch also
 * stops the local queue's every later batch: docs/testing.md). Callers before the first answer
 * each ask, one statement each.
 */
let legacyCheck: { at: number; held: boolean } | null = null;

/** Whether EVENTS_DB still holds rows of visitors exposed before the shards. */
export async function holdsLegacyVisitors(db: D1Database, now = Date.now()): Promise<boolean> {
  if (legacyCheck !== null && now - legacyCheck.at < LEGACY_RECHECK_MS) return legacyCheck.held;
  const row = await db
    .prepare('SELECT EXISTS (SELECT 1 FROM exposures) AS held')
    .first<{ held: number }>();
  const held = row?.held === 1;
  legacyCheck = { at: now, held };
  return held;
}

/** Forgets the isolate's answer, as a fresh isolate would: for tests that seed EVENTS_DB. */
export function forgetLegacyCheck(): void {
  legacyCheck = null;
}

/**
 * A write of visitors' later rows (steps, purchases): to each shard the items' visitors live in,
 * and to EVENTS_DB as well while it holds visitors exposed before the shards. A visitor has a row
 * in one store only, so the write counts in one.
 */
export async function toVisitorsStores<T extends { visitorId: string }>(
  stores: ExperimentStores,
  items: readonly T[],
  toShard: (shard: DurableObjectStub<ExperimentShard>, items: T[]) => Promise<void>,
  statements: (items: readonly T[]) => Statement[],
): Promise<void> {
  if (items.length === 0) return;
  await Promise.all([
    toEachShard(stores, items, (item) => item.visitorId, toShard),
    holdsLegacyVisitors(stores.legacy).then((held) =>
      held ? runOnLegacy(stores.legacy, statements(items)) : undefined,
    ),
  ]);
}

/** The statements on EVENTS_DB in one transaction (a batch). */
export async function runOnLegacy(db: D1Database, statements: readonly Statement[]): Promise<void> {
  if (statements.length === 0) return;
  await db.batch(statements.map(({ sql, params }) => db.prepare(sql).bind(...params)));
}

/** What the results read of one store: a phase's rows, and the phases it saw exposures in. */
export interface StoreResults {
  rows: PhaseRows;
  phases: number[];
}

/** EVENTS_DB's part of a phase's results: one batch. */
export async function legacyResults(db: D1Database, phase: number): Promise<StoreResults> {
  const statements = [
    armRowsStatement(phase),
    revenueRowsStatement(phase),
    dayRowsStatement(phase),
    dayRevenueRowsStatement(phase),
    phasesStatement(),
  ];
  const [arms, revenue, days, dayRevenue, phases] = await db.batch(
    statements.map(({ sql, params }) => db.prepare(sql).bind(...params)),
  );
  return {
    rows: {
      arms: (arms?.results ?? []) as ArmRow[],
      revenue: (revenue?.results ?? []) as RevenueRow[],
      days: (days?.results ?? []) as DayRow[],
      dayRevenue: (dayRevenue?.results ?? []) as DayRevenueRow[],
    },
    phases: ((phases?.results ?? []) as { phase: number }[]).map((row) => row.phase),
  };
}

const SHARDS = Array.from({ length: EXPERIMENT_SHARD_COUNT }, (_, index) => index);

/**
 * One experiment's rows of a phase, every shard's added, and every phase anyone was exposed to
 * it in (bots aside), newest first: each shard asked once, in parallel, whatever the number of
 * visitors. For the split, its own tables are added too (each shard's, and EVENTS_DB's visitors
 * from before the shards), so its phases and results from before every experiment was counted
 * are kept. `segments`: one dimension's rows only, every dimension's (the default), or none. A
 * store that fails fails the whole read: never a partial sum.
 */
export async function readExperimentRows(
  stores: ExperimentStores,
  experimentId: string,
  phase: number,
  segments: SegmentDimension | null | 'none' = null,
): Promise<{ rows: ExperimentPhaseRows; phases: number[] }> {
  const parts = await Promise.all([
    ...SHARDS.map((index) =>
      shardStub(stores, index).experimentRows(experimentId, phase, segments),
    ),
    ...(experimentId === SPLIT_EXPERIMENT_ID
      ? [
          legacyResults(stores.legacy, phase).then((legacy) => ({
            rows: splitRowsAsExperimentRows(legacy.rows),
            phases: legacy.phases,
          })),
        ]
      : []),
  ]);
  return {
    rows: addExperimentPhaseRows(parts.map((part) => part.rows)),
    phases: addPhases(parts.map((part) => part.phases)),
  };
}

/** Every phase anyone was exposed to the experiment in, newest first: each store asked once. */
export async function readExperimentPhases(
  stores: ExperimentStores,
  experimentId: string,
): Promise<number[]> {
  const parts = await Promise.all([
    ...SHARDS.map((index) => shardStub(stores, index).experimentPhases(experimentId)),
    ...(experimentId === SPLIT_EXPERIMENT_ID ? [runLegacyPhases(stores.legacy)] : []),
  ]);
  return addPhases(parts);
}

async function runLegacyPhases(db: D1Database): Promise<number[]> {
  const { sql, params } = phasesStatement();
  const { results } = await db
    .prepare(sql)
    .bind(...params)
    .all<{ phase: number }>();
  return results.map((row) => row.phase);
}

/**
 * The split's rows of a phase as its results have read them (PhaseRows), every store's added:
 * its own tables and, since every experiment is counted, its visitors in every experiment's.
 */
export async function readResults(stores: ExperimentStores, phase: number): Promise<StoreResults> {
  const { rows, phases } = await readExperimentRows(stores, SPLIT_EXPERIMENT_ID, phase, 'none');
  return { rows, phases };
}
