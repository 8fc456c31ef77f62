/**
 * Guarded ramps (docs/experiments.md, "Guarded ramps"): an experiment of one variant against its
 * control that starts on a small share of its visitors and grows step by step while its
 * guardrails hold, and holds or rolls back on its own when one breaks. Plain constants, so the
 * console's bundle takes them without zod; the schema is shared/config/ramp.ts.
 */

/**
 * What a ramp watches (docs/statistics.md, "Guarded ramps"), each counted from what the worker
 * itself knows, never from what a page posts (docs/experiments.md, "Guarded ramps"):
 * - `conversion`: the exposed visitors who converted on the experiment's primary metric (bought,
 *   for a revenue metric), from the steps the worker saw and the purchases it verified; judged
 *   one-sided, "worse" only, so a variant whose Pay button never works is rolled back however
 *   its declines look;
 * - `declines`: exposed visitors with a payment declined, read from the worker's own charge answers;
 * - `checkout_errors`: those whose charge failed on the issuer's or network's side (declines of
 *   class `processing_error`), from the same answers;
 * - `server_errors`: exposed visitors the worker answered a request of with a 5xx, which it
 *   records itself (worker/middleware/server-errors.ts);
 * - `client_errors`: exposed visitors whose own browser reported an island or script that failed,
 *   or the checkout's error state: forgeable for one's own row, so it may hold a ramp or warn,
 *   never roll it back;
 * - `refunds`: exposed buyers refunded or charged back, from the product API's verified events;
 * - `lcp`, `inp`: the pages' field vitals, beacons a visitor's browser sends and could forge, so
 *   they may hold a ramp or warn, never roll it back;
 * - `srm`: the arms' exposures against the 50/50 the ramp draws; a visitor chooses their own id
 *   (the `userUuid` cookie), hence their arm, and can skew the counts with page views, so it
 *   holds by default rather than rolling back;
 * - `no_traffic`: no one exposed a grace period after the ramp started.
 */
export const RAMP_GUARDRAILS = [
  'conversion',
  'declines',
  'checkout_errors',
  'server_errors',
  'client_errors',
  'refunds',
  'lcp',
  'inp',
  'srm',
  'no_traffic',
] as const;
export type RampGuardrail = (typeof RAMP_GUARDRAILS)[number];

/** What a broken guardrail does: roll the variant back to no one, hold the step, or only alert. */
export const RAMP_ACTIONS = ['rollback', 'hold', 'warn'] as const;
export type RampAction = (typeof RAMP_ACTIONS)[number];

/** The guardrails a visitor's browser reports: able to hold a ramp, never to roll it back. */
export const FORGEABLE_GUARDRAILS: ReadonlySet<RampGuardrail> = new Set([
  'client_errors',
  'lcp',
  'inp',
]);

/** What each guardrail does when the ramp does not say. */
export const DEFAULT_RAMP_ACTIONS: Readonly<Record<RampGuardrail, RampAction>> = {
  conversion: 'rollback',
  declines: 'rollback',
  checkout_errors: 'rollback',
  server_errors: 'rollback',
  client_errors: 'hold',
  refunds: 'warn',
  lcp: 'hold',
  inp: 'hold',
  srm: 'hold',
  no_traffic: 'hold',
};

/**
 * Where a ramp stands: `running` (the engine advances it), `held` (a guardrail or a person
 * stopped it at its step until someone resumes it), `rolled_back` (the variant reaches no one;
 * the visitors' records stay), `done` (at its last step; the guardrails are still watched).
 */
export const RAMP_STATUSES = ['running', 'held', 'rolled_back', 'done'] as const;

/**
 * The largest treatment share of a step: the variant takes [0, c) of the visitors' draws and the
 * control an equal band [0.5, 0.5 + c), so 0.5 is everyone, half and half.
 */
export const MAX_RAMP_COVERAGE = 0.5;

/** Hours after a ramp starts before `no_traffic` is judged, unless the ramp says. */
export const DEFAULT_NO_TRAFFIC_HOURS = 24;

/** The false-rollback rate of a whole ramp, shared among its guardrails that can act. */
export const DEFAULT_RAMP_ALPHA = 0.05;

/**
 * How the ramp engine's own reasons begin (worker/experiments/ramps/ramp-engine.ts): "broken:
 * declines (…)". A person's reason for a hold or a rollback is their own words.
 */
export const ENGINE_REASON_PREFIX = 'broken: ';

/** Who moved a ramp, by its reason: its guardrails (the engine), or a person. */
export function rampMover(reason: string | undefined): 'guardrail' | 'person' {
  return reason?.startsWith(ENGINE_REASON_PREFIX) ? 'guardrail' : 'person';
}

const HOUR_MS = 60 * 60 * 1000;

/** What of a ramp (shared/config/ramp.ts RampDocument) its hold reads. */
interface HeldRamp {
  steps: readonly { holdHours: number }[];
  state: { step: number; since: string };
}

/**
 * When a ramp's step has held long enough (epoch ms): its hours count from the step's start, or
 * from when its visitors began to be drawn (`startedAt`, epoch ms) when that came later, as for a
 * ramp set on a draft before it ran. The engine's gate and the console's line read it alike; here,
 * beside the ramp's constants, so the console reads it without the config's schemas.
 */
export function stepHoldUntil(ramp: HeldRamp, startedAt: number): number {
  const step = ramp.steps[ramp.state.step];
  return Math.max(Date.parse(ramp.state.since), startedAt) + (step?.holdHours ?? 0) * HOUR_MS;
}
