import type { ChargeProvider } from '../../shared/charge-outcome';

/**
 * Whether a card provider is failing, from its technical failures only (docs/payments.md,
 * "A failing provider routed around"; as Yuno's Monitors route around a failing provider):
 * its script not loading in a visitor's browser, a charge call that timed out or answered 5xx, a
 * technical processor code (TECH_NOT_SENT, TECH_UNKNOWN of shared/charge-outcome.ts). A decline
 * is the card's answer, not the provider's failure: it counts as a success here. Pure: the
 * Durable Object of ./provider-health.ts keeps the state, the worker's clock is passed in.
 *
 * A circuit breaker with hysteresis:
 * - healthy → failing when, over the last HEALTH_WINDOW_MS, at least MIN_SAMPLE calls were seen
 *   and at least OPEN_AT of them failed;
 * - while failing, new checkouts go to the other provider but for PROBE_SHARE; once it has seen
 *   no failure for COOL_DOWN_MS it is half-open: HALF_OPEN_PROBE_SHARE of checkouts probe it;
 * - failing → healthy after RECOVERY_STREAK calls in a row succeeded *after* the cool-down: a
 *   success during the cool-down (a visitor pinned to it whose resend went through the moment
 *   the fault ended) counts for nothing, so an outage that stops and starts again within
 *   COOL_DOWN_MS never brings the provider back in between; any technical failure while failing
 *   starts the cool-down again and the streak from zero.
 */

/** The window a healthy provider is judged over, in buckets of HEALTH_BUCKET_MS. */
export const HEALTH_WINDOW_MS = 120_000;
const HEALTH_BUCKET_MS = 10_000;
/** Fewer calls than this in the window say nothing: a few failures of a quiet hour are noise. */
export const MIN_SAMPLE = 20;
/** The share of technical failures in the window at which a provider is failing. */
export const OPEN_AT = 0.3;
/** The share of new checkouts still sent to a failing provider, so its recovery is seen. */
export const PROBE_SHARE = 0.01;
/** How long a failing provider must show no failure before it is probed more. */
export const COOL_DOWN_MS = 60_000;
/** The probe share once the cool-down has passed without a failure. */
export const HALF_OPEN_PROBE_SHARE = 0.1;
/** Successful probes in a row that bring a failing provider back. */
export const RECOVERY_STREAK = 3;

/** One bucket of the window: the calls seen from `start` for HEALTH_BUCKET_MS. */
interface HealthBucket {
  start: number;
  ok: number;
  failed: number;
}

/** What one provider's Durable Object keeps. */
export interface HealthState {
  failing: boolean;
  /** When it last turned failing, or last failed while failing (the cool-down's start). */
  since: number | null;
  /** Successes in a row while failing, counted only once the cool-down has passed. */
  streak: number;
  buckets: HealthBucket[];
}

export const HEALTHY: HealthState = { failing: false, since: null, streak: 0, buckets: [] };

/** What the routing reads of a provider: whether it is failing, and the probe share to keep. */
export interface HealthView {
  provider: ChargeProvider;
  failing: boolean;
  /** The share of new checkouts to send it while failing; 1 when healthy. */
  share: number;
  /** The window's counts, for the log and the operator. */
  calls: number;
  failures: number;
}

function bucketStart(now: number): number {
  return now - (now % HEALTH_BUCKET_MS);
}

/** The buckets still inside the window at `now`. */
function liveBuckets(buckets: readonly HealthBucket[], now: number): HealthBucket[] {
  return buckets.filter((bucket) => bucket.start > now - HEALTH_WINDOW_MS);
}

function counted(buckets: readonly HealthBucket[]): { calls: number; failures: number } {
  let calls = 0;
  let failures = 0;
  for (const bucket of buckets) {
    calls += bucket.ok + bucket.failed;
    failures += bucket.failed;
  }
  return { calls, failures };
}

/** The window with one more call counted in `now`'s bucket. */
function withCall(buckets: readonly HealthBucket[], failed: boolean, now: number): HealthBucket[] {
  const start = bucketStart(now);
  const live = liveBuckets(buckets, now);
  const current = live.find((bucket) => bucket.start === start);
  const added = { ok: failed ? 0 : 1, failed: failed ? 1 : 0 };
  if (!current) return [...live, { start, ...added }];
  return live.map((bucket) =>
    bucket === current
      ? { start, ok: bucket.ok + added.ok, failed: bucket.failed + added.failed }
      : bucket,
  );
}

/**
 * The state after one more call of the provider: `failed` when it failed technically. A change
 * of `failing` is the caller's to log (`provider_health_changed`).
 */
export function recordCall(state: HealthState, failed: boolean, now: number): HealthState {
  if (state.failing) {
    if (failed) return { ...state, since: now, streak: 0 };
    if (!cooledDown(state, now)) return state;
    const streak = state.streak + 1;
    // Back, with an empty window: the outage's failures must not turn it failing again.
    return streak >= RECOVERY_STREAK ? HEALTHY : { ...state, streak };
  }
  const buckets = withCall(state.buckets, failed, now);
  const { calls, failures } = counted(buckets);
  if (calls >= MIN_SAMPLE && failures / calls >= OPEN_AT) {
    return { failing: true, since: now, streak: 0, buckets: [] };
  }
  return { ...state, buckets };
}

/** A failing provider has gone COOL_DOWN_MS without a failure: it is half-open. */
function cooledDown(state: HealthState, now: number): boolean {
  return state.since !== null && now - state.since >= COOL_DOWN_MS;
}

/** What the routing reads of the state at `now`. */
export function viewOf(provider: ChargeProvider, state: HealthState, now: number): HealthView {
  const { calls, failures } = counted(liveBuckets(state.buckets, now));
  if (!state.failing) return { provider, failing: false, share: 1, calls, failures };
  return {
    provider,
    failing: true,
    share: cooledDown(state, now) ? HALF_OPEN_PROBE_SHARE : PROBE_SHARE,
    calls,
    failures,
  };
}
