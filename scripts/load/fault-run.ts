import type { D1Database } from '@cloudflare/workers-types';
import { type FaultCall, type FaultTiming, switchFaultOnUntil } from '../../portal/faults';
import { type JourneyReport, runJourney } from './journey';

/**
 * The fault-injection load run: concurrent visitors pay through a served worker while
 * portal calls fail in turn, then each visitor's charges, what they were told and the purchase
 * events stored are read back from the portal's and the collector's databases.
 */

/** Which portal call fails, and how: 'after' makes the call's work happen and loses its answer. */
export interface FaultPhase {
  call: FaultCall;
  timing: FaultTiming;
}

/** The calls a payment journey makes, each failing in turn (`--fault each`). */
export const EACH_CALL_IN_TURN: readonly FaultPhase[] = [
  { call: 'signup', timing: 'before' },
  { call: 'subscriptions-polling', timing: 'after' },
  { call: 'polling-result', timing: 'before' },
];

export interface FaultRunOptions {
  origin: string;
  portalDb: D1Database;
  eventsDb: D1Database;
  visitors: number;
  concurrency: number;
  phases: readonly FaultPhase[];
  /**
   * How long each phase's call fails at least. A phase goes on, window after window (up to
   * MAX_WINDOWS), until `failuresSeen` has grown: on a loaded machine the visitors may reach a
   * call later than planned, and a phase no call met tested nothing.
   */
  faultMs: number;
  /** The portal failures the worker has logged so far. */
  failuresSeen: () => number;
  /** How long a visitor waits for an outcome before leaving (the page would go on asking). */
  patienceMs: number;
  /** How long to wait for the queue consumer to store the purchase events. */
  settleMs: number;
}

export interface VisitorResult extends JourneyReport {
  /** Active subscriptions the portal holds for the visitor: charges. */
  charges: number;
  /**
   * Server-verified purchases claimed for the visitor (accepted): the queue consumer claims each
   * one it is handed (worker/collector/consumer/purchase-claims.ts), so they too come after the queue.
   */
  verified: number;
  /** Purchase events with source 'server' in the local event store (stored). */
  stored: number;
}

export interface FaultRunResult {
  visitors: VisitorResult[];
  /** The fault phases as they ran, with their start (ms from the run's start). */
  phases: (FaultPhase & { startedMs: number })[];
  durationMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Documentation addresses (RFC 5737), one per visitor: a header value only, no traffic. */
function addressOf(index: number): string {
  return `192.0.2.${(index % 250) + 1}`;
}

/** The most windows of `faultMs` one phase lasts while no call has failed. */
const MAX_WINDOWS = 4;

async function switchPhases(db: D1Database, options: FaultRunOptions, started: number) {
  const ran: FaultRunResult['phases'] = [];
  for (const phase of options.phases) {
    ran.push({ ...phase, startedMs: Date.now() - started });
    const before = options.failuresSeen();
    for (let window = 0; window < MAX_WINDOWS; window++) {
      await switchFaultOnUntil(db, phase.call, Date.now() + options.faultMs, phase.timing);
      await sleep(options.faultMs);
      if (options.failuresSeen() > before) break;
    }
  }
  return ran;
}

/** Visitors arrive over the fault phases, at most `concurrency` paying at once. */
async function runVisitors(options: FaultRunOptions): Promise<JourneyReport[]> {
  const reports: JourneyReport[] = [];
  const spreadMs = (options.phases.length * options.faultMs) / Math.max(1, options.visitors);
  let next = 0;
  async function lane() {
    while (next < options.visitors) {
      const index = next++;
      await sleep(Math.max(0, index * spreadMs - (Date.now() - laneStart)));
      reports[index] = await runJourney({
        origin: options.origin,
        address: addressOf(index),
        presses: 3,
        patienceMs: options.patienceMs,
      });
    }
  }
  const laneStart = Date.now();
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return reports;
}

async function countsByVisitor(options: FaultRunOptions, reports: JourneyReport[]) {
  const charges = new Map<string, number>();
  const { results: subscriptions } = await options.portalDb
    .prepare(
      "SELECT user_id AS user, count(*) AS n FROM subscriptions WHERE status = 'active' GROUP BY user_id",
    )
    .all<{ user: string; n: number }>();
  for (const row of subscriptions) charges.set(row.user, row.n);
  const stored = new Map<string, number>();
  const { results: events } = await options.eventsDb
    .prepare(
      `SELECT device_id AS visitor, count(*) AS n FROM events
       WHERE event_type = 'subs_purchase_completed' AND json_extract(properties, '$.source') = 'server'
       GROUP BY device_id`,
    )
    .all<{ visitor: string; n: number }>();
  for (const row of events) stored.set(row.visitor, row.n);
  const { results: verifiedRows } = await options.eventsDb
    .prepare('SELECT subscription_id AS id FROM verified_purchases')
    .all<{ id: string }>();
  const verifiedIds = new Set(verifiedRows.map((row) => row.id));
  const { results: owners } = await options.portalDb
    .prepare("SELECT id, user_id AS user FROM subscriptions WHERE status = 'active'")
    .all<{ id: string; user: string }>();
  const verified = new Map<string, number>();
  for (const owner of owners) {
    if (verifiedIds.has(owner.id)) verified.set(owner.user, (verified.get(owner.user) ?? 0) + 1);
  }
  return reports.map(
    (report): VisitorResult => ({
      ...report,
      charges: report.userId ? (charges.get(report.userId) ?? 0) : 0,
      verified: report.userId ? (verified.get(report.userId) ?? 0) : 0,
      stored: stored.get(report.visitorId) ?? 0,
    }),
  );
}

export async function runFaultLoad(options: FaultRunOptions): Promise<FaultRunResult> {
  const started = Date.now();
  const [phases, reports] = await Promise.all([
    switchPhases(options.portalDb, options, started),
    runVisitors(options),
  ]);
  // The purchases travel through the queue, claimed and stored by its consumer: wait until each
  // charge is claimed and stored.
  let visitors = await countsByVisitor(options, reports);
  const deadline = Date.now() + options.settleMs;
  const unsettled = (v: VisitorResult) => v.verified < v.charges || v.stored < v.verified;
  while (visitors.some(unsettled) && Date.now() < deadline) {
    await sleep(250);
    visitors = await countsByVisitor(options, reports);
  }
  return { visitors, phases, durationMs: Date.now() - started };
}

/** What must hold after the run; each broken rule, with the visitors it hit. */
export function brokenPromises(result: FaultRunResult): string[] {
  const broken: string[] = [];
  const twice = result.visitors.filter((v) => v.charges > 1);
  if (twice.length > 0) broken.push(`${twice.length} visitors charged more than once`);
  const lied = result.visitors.filter((v) => v.charges > 0 && v.told.includes('failed'));
  if (lied.length > 0) broken.push(`${lied.length} visitors told 'failed' although charged`);
  const unpaid = result.visitors.filter((v) => v.charges === 0 && v.told.at(-1) === 'succeeded');
  if (unpaid.length > 0) broken.push(`${unpaid.length} visitors told 'succeeded' but not charged`);
  const lost = result.visitors.filter((v) => v.verified !== v.charges || v.stored !== v.verified);
  if (lost.length > 0) {
    broken.push(`${lost.length} visitors whose purchase events do not match their charges`);
  }
  const stuck = result.visitors.filter((v) => v.problem !== null);
  if (stuck.length > 0)
    broken.push(`${stuck.length} visitors could not finish: ${stuck[0]?.problem}`);
  return broken;
}

/** The run as a table: one line per outcome pattern, with counts. */
export function summary(result: FaultRunResult): string {
  const lines = [
    `${result.visitors.length} visitors in ${(result.durationMs / 1000).toFixed(1)} s; faults: ${result.phases
      .map((p) => `${p.call} (${p.timing}) at ${(p.startedMs / 1000).toFixed(1)} s`)
      .join(', ')}`,
  ];
  const patterns = new Map<string, number>();
  for (const v of result.visitors) {
    const told = collapse(v.told).join(' → ') || '(nothing)';
    const why = v.failure ? ` (${v.failure})` : '';
    const key = `charges ${v.charges}, events ${v.stored}/${v.verified} stored/accepted, told: ${told}${why}`;
    patterns.set(key, (patterns.get(key) ?? 0) + 1);
  }
  for (const [pattern, count] of [...patterns].sort((a, b) => b[1] - a[1])) {
    lines.push(`  ${String(count).padStart(4)} × ${pattern}`);
  }
  const totals = result.visitors.reduce(
    (sum, v) => ({
      charges: sum.charges + v.charges,
      stored: sum.stored + v.stored,
      verified: sum.verified + v.verified,
    }),
    { charges: 0, stored: 0, verified: 0 },
  );
  lines.push(
    `  charges ${totals.charges}, purchase events accepted ${totals.verified}, stored ${totals.stored}`,
  );
  return lines.join('\n');
}

/** 'confirming' repeated while the page waits reads as one. */
function collapse(told: readonly string[]): string[] {
  return told.filter((kind, index) => kind !== told[index - 1]);
}
