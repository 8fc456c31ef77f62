import type { D1Database } from '@cloudflare/workers-types';
import { switchFaultOn, switchFaultOnUntil } from '../../portal/faults';
import type { ChargeProvider } from '../../shared/charge-outcome';
import { COOL_DOWN_MS } from '../../worker/provider-health/health-window';
import { type ProviderJourneyReport, runProviderJourney } from './provider-journey';

/**
 * The provider outage run (`npm run load -- --provider stripe`): visitors arrive at a steady rate
 * and pay through the built development worker while one card provider's charges fail on, off
 * and on again (its fake's switch, before the charge: nothing is charged), then a tail without a
 * fault in which the provider may come back. Reports the three promises of docs/payments.md
 * ("A failing provider routed around", "A visitor already paying when the provider fails"):
 * every visitor already paying on it offered the other provider within OFFER_BUDGET_MS of their
 * first failure, nobody charged twice, and the provider not counted back before its cool-down.
 */

/** The promise to a visitor already paying: the other provider offered within this. */
const OFFER_BUDGET_MS = 15_000;

export interface OutageOptions {
  origin: string;
  portalDb: D1Database;
  provider: ChargeProvider;
  /** Seconds the fault is on, off, on, ... in turn, from the run's start. */
  pattern: readonly number[];
  /** Seconds without a fault after the pattern, for the provider to come back. */
  tailSeconds: number;
  /** New visitors a second, all through the pattern and the tail. */
  rate: number;
  /** Between a visitor's checkout loading (the provider pinned) and their press of Pay. */
  thinkMs: number;
  patienceMs: number;
  /** The worker's log lines so far (provider_health_changed, provider_routed). */
  logs: () => Record<string, unknown>[];
}

export interface Window {
  /** Seconds from the run's start. */
  from: number;
  to: number;
}

export interface OutageResult {
  visitors: (ProviderJourneyReport & { charges: number })[];
  /** When the fault was on, in seconds from the run's start. */
  faults: Window[];
  /** The provider's health turns, in seconds from the run's start. */
  turns: { at: number; failing: boolean }[];
  /** New checkouts routed, by provider and reason, while the run lasted. */
  routed: Record<string, number>;
  startedAt: number;
  durationMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The fault's windows from the pattern: on, off, on, ... (seconds from the start). */
export function faultWindows(pattern: readonly number[]): Window[] {
  const windows: Window[] = [];
  let at = 0;
  pattern.forEach((seconds, index) => {
    if (index % 2 === 0) windows.push({ from: at, to: at + seconds });
    at += seconds;
  });
  return windows;
}

async function switchPattern(options: OutageOptions, startedAt: number) {
  const call = options.provider === 'stripe' ? 'charge-stripe' : 'charge-braintree';
  for (const window of faultWindows(options.pattern)) {
    await sleep(Math.max(0, startedAt + window.from * 1000 - Date.now()));
    await switchFaultOnUntil(options.portalDb, call, startedAt + window.to * 1000, 'before');
  }
  const end = options.pattern.reduce((sum, seconds) => sum + seconds, 0);
  await sleep(Math.max(0, startedAt + end * 1000 - Date.now()));
  await switchFaultOn(options.portalDb, call, 0);
}

/** Documentation addresses (RFC 5737), one per visitor: a header value only, no traffic. */
const addressOf = (index: number) => `198.51.100.${(index % 250) + 1}`;

async function runVisitors(options: OutageOptions, startedAt: number) {
  const total = options.pattern.reduce((sum, seconds) => sum + seconds, 0) + options.tailSeconds;
  // The last visitors arrive early enough to press Pay before the tail ends.
  const arriving = Math.max(1, Math.floor((total - options.thinkMs / 1000) * options.rate));
  const journeys: Promise<ProviderJourneyReport>[] = [];
  for (let index = 0; index < arriving; index += 1) {
    await sleep(Math.max(0, startedAt + (index / options.rate) * 1000 - Date.now()));
    journeys.push(
      runProviderJourney({
        origin: options.origin,
        address: addressOf(index),
        thinkMs: options.thinkMs,
        patienceMs: options.patienceMs,
      }),
    );
  }
  return Promise.all(journeys);
}

async function chargesByUser(db: D1Database): Promise<Map<string, number>> {
  const { results } = await db
    .prepare(
      "SELECT user_id AS user, count(*) AS n FROM subscriptions WHERE status = 'active' GROUP BY user_id",
    )
    .all<{ user: string; n: number }>();
  return new Map(results.map((row) => [row.user, row.n]));
}

export async function runProviderOutage(options: OutageOptions): Promise<OutageResult> {
  const startedAt = Date.now();
  const total = options.pattern.reduce((sum, seconds) => sum + seconds, 0) + options.tailSeconds;
  const [, reports] = await Promise.all([
    switchPattern(options, startedAt),
    runVisitors(options, startedAt),
  ]);
  // The tail runs its full length: the provider's return is what it is there to see.
  await sleep(Math.max(0, startedAt + total * 1000 - Date.now()));
  const charges = await chargesByUser(options.portalDb);
  const since = (line: Record<string, unknown>) => (Date.parse(String(line.ts)) - startedAt) / 1000;
  const lines = options.logs();
  const turns = lines
    .filter(
      (line) =>
        (line.error === 'provider_health_changed' || line.warning === 'provider_health_changed') &&
        line.provider === options.provider,
    )
    .map((line) => ({ at: since(line), failing: line.failing === true }));
  const routed: Record<string, number> = {};
  for (const line of lines.filter((each) => each.event === 'provider_routed')) {
    const key = `${String(line.provider)} (${String(line.reason)})`;
    routed[key] = (routed[key] ?? 0) + 1;
  }
  return {
    visitors: reports.map((report) => ({
      ...report,
      charges: report.userId ? (charges.get(report.userId) ?? 0) : 0,
    })),
    faults: faultWindows(options.pattern),
    turns,
    routed,
    startedAt,
    durationMs: Date.now() - startedAt,
  };
}

/** Visitors whose payment on the failing provider failed: already paying when it failed. */
function caughtPaying(result: OutageResult, provider: ChargeProvider) {
  return result.visitors.filter((v) => v.given === provider && v.firstFailureAt !== null);
}

const offerMs = (v: ProviderJourneyReport) =>
  v.offeredAt !== null && v.firstFailureAt !== null ? v.offeredAt - v.firstFailureAt : null;

/**
 * Each time the provider was counted back: how long after its fault last went off, and after the
 * last failure of it any visitor met (the health's cool-down runs from the last failure it saw,
 * which is no later), whether it was during a fault, and whether it turned failing again later
 * in the run (a flip).
 */
function comebacks(result: OutageResult, provider: ChargeProvider) {
  const failures = result.visitors
    .filter((v) => v.given === provider)
    .flatMap((v) => v.failuresAt.map((at) => (at - result.startedAt) / 1000));
  return result.turns
    .filter((turn) => !turn.failing)
    .map((turn) => {
      const lastOff = Math.max(
        ...result.faults.filter((w) => w.to <= turn.at).map((w) => w.to),
        Number.NEGATIVE_INFINITY,
      );
      const lastFailure = Math.max(
        ...failures.filter((at) => at <= turn.at),
        Number.NEGATIVE_INFINITY,
      );
      return {
        at: turn.at,
        afterFaultEnded: turn.at - lastOff,
        afterLastFailure: turn.at - lastFailure,
        duringFault: result.faults.some((w) => turn.at >= w.from && turn.at < w.to),
        flipped: result.turns.some((later) => later.failing && later.at > turn.at),
      };
    });
}

/** The page hears a failure a moment after the worker counted it: this much is not a breach. */
const HEARD_LATER_S = 1;

/** What must hold after the run; each broken promise, said plainly. */
export function brokenOutagePromises(result: OutageResult, provider: ChargeProvider): string[] {
  const broken: string[] = [];
  const paying = caughtPaying(result, provider);
  const twice = result.visitors.filter((v) => v.charges > 1);
  if (twice.length > 0) broken.push(`${twice.length} visitors charged more than once`);
  const late = paying.filter((v) => (offerMs(v) ?? Number.POSITIVE_INFINITY) > OFFER_BUDGET_MS);
  if (late.length > 0) {
    broken.push(
      `${late.length} of ${paying.length} visitors already paying were not offered the other provider within ${OFFER_BUDGET_MS / 1000} s`,
    );
  }
  const unpaid = result.visitors.filter((v) => v.paidWith !== null && v.charges === 0);
  if (unpaid.length > 0) broken.push(`${unpaid.length} visitors told 'succeeded' but not charged`);
  const soon = comebacks(result, provider).filter(
    (back) => back.duringFault || back.afterLastFailure + HEARD_LATER_S < COOL_DOWN_MS / 1000,
  );
  if (soon.length > 0) {
    broken.push(
      `the provider was counted back ${soon.map((b) => `${b.afterLastFailure.toFixed(1)} s`).join(', ')} after the last failure a visitor met, before its ${COOL_DOWN_MS / 1000} s cool-down`,
    );
  }
  const flips = comebacks(result, provider).filter((back) => back.flipped);
  if (flips.length > 0) {
    broken.push(`the provider flipped back and failing again ${flips.length} times`);
  }
  const stuck = result.visitors.filter((v) => v.problem !== null);
  if (stuck.length > 0)
    broken.push(`${stuck.length} visitors could not finish: ${stuck[0]?.problem}`);
  return broken;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

/** The run's figures, for the load report. */
export function outageSummary(result: OutageResult, provider: ChargeProvider): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const paying = caughtPaying(result, provider);
  const offers = paying
    .map(offerMs)
    .filter((ms): ms is number => ms !== null)
    .sort((a, b) => a - b);
  const charged = result.visitors.filter((v) => v.charges > 0);
  const backs = comebacks(result, provider);
  const lines = [
    `${result.visitors.length} visitors in ${seconds(result.durationMs)}; ${provider}'s charges failing ${result.faults
      .map((w) => `${w.from}–${w.to} s`)
      .join(' and ')}`,
    `1. Already paying on ${provider} when it failed: ${paying.length}; offered the other provider: ${offers.length}` +
      (offers.length
        ? ` (after their first failure: median ${seconds(percentile(offers, 0.5))}, p95 ${seconds(percentile(offers, 0.95))}, max ${seconds(offers.at(-1) ?? 0)}; budget ${seconds(OFFER_BUDGET_MS)})`
        : '') +
      `; paid there: ${paying.filter((v) => v.paidWith !== null && v.paidWith !== provider).length}`,
    `2. Charged: ${charged.length} visitors, ${charged.reduce((sum, v) => sum + v.charges, 0)} charges; charged more than once: ${result.visitors.filter((v) => v.charges > 1).length}`,
    `3. ${provider}'s health: ${result.turns.map((t) => `${t.failing ? 'failing' : 'back'} at ${t.at.toFixed(1)} s`).join(', ') || 'never turned'}` +
      (backs.length
        ? `; back ${backs.map((b) => `${b.afterFaultEnded.toFixed(1)} s after its fault ended, ${b.afterLastFailure.toFixed(1)} s after the last failure a visitor met`).join('; ')} (cool-down ${seconds(COOL_DOWN_MS)})`
        : '; never back within the run'),
    `   new checkouts routed: ${
      Object.entries(result.routed)
        .sort((a, b) => b[1] - a[1])
        .map(([key, n]) => `${n} × ${key}`)
        .join(', ') || 'none'
    }`,
    `   paid with: ${['stripe', 'braintree']
      .map((p) => `${p} ${result.visitors.filter((v) => v.paidWith === p).length}`)
      .join(', ')}; not paid: ${result.visitors.filter((v) => v.paidWith === null).length}`,
  ];
  return lines.join('\n');
}
