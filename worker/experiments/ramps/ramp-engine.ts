import type { RampDocument } from '../../../shared/config/ramp';
import {
  DEFAULT_NO_TRAFFIC_HOURS,
  DEFAULT_RAMP_ACTIONS,
  DEFAULT_RAMP_ALPHA,
  ENGINE_REASON_PREFIX,
  RAMP_GUARDRAILS,
  type RampAction,
  type RampGuardrail,
  stepHoldUntil,
} from '../../../shared/ramps';
import { utcMinuteText } from '../../../shared/utc-minute';
import {
  type ArmEvents,
  harmTest,
  sampleRatioTest,
  shortfallTest,
  type TestReading,
} from './guardrail-tests';

/**
 * The guarded ramp's engine (docs/experiments.md, "Guarded ramps"): a pure function of the ramp,
 * what its arms show now and the time, giving each guardrail's state, the next step's gate and
 * the one move to make. The cron (worker/alerts/run-ramps.ts) publishes the move as a config
 * version and alerts. The rules, in order:
 *
 * 1. a rolled-back ramp makes no move;
 * 2. a broken guardrail whose action is `rollback` rolls it back;
 * 3. else one whose action is `hold` holds a running (or done) ramp at its step;
 * 4. else a running ramp whose step has lasted its hours, with each arm's minimum exposed,
 *    advances (from its last step: done);
 * a broken `warn` guardrail only alerts. A held ramp stays held until a person resumes it.
 */

/** What one arm shows, from the verified signals only (shared/ramps.ts RAMP_GUARDRAILS). */
export interface ArmSignals {
  exposed: number;
  /** Of them, those who converted on the experiment's primary metric (bought, for revenue). */
  conversions: number;
  /** Of them, those who bought a main plan (the `purchase` metric). */
  purchases: number;
  declines: number;
  checkoutErrors: number;
  /** Of them, those the worker answered with a 5xx, and those whose browser reported an error. */
  serverErrors: number;
  clientErrors: number;
  refunds: number;
}

/** What the engine sees of both arms at one look: their counts and the vitals' verdicts. */
export interface RampObservation {
  control: ArmSignals;
  variant: ArmSignals;
  /**
   * Whether the primary metric counts buyers (purchase, or a revenue metric): then `conversions`
   * are the purchases, and the conversion guardrail tests them once.
   */
  primaryBuys: boolean;
  /** The results' field-vitals verdict is `worse` for the variant (docs/statistics.md). */
  lcpWorse: boolean;
  inpWorse: boolean;
}

/** When the engine looks, and what it counts from. */
export interface RampClock {
  now: number;
  /** When the experiment started running (epoch ms): `no_traffic` counts from it. */
  startedAt: number;
  /** The visitors per arm the mixture is tuned to (the experiment's planned sample). */
  plannedPerArm: number;
}

/** One guardrail at one look: what it does when broken, whether it is, and what it sees. */
export interface GuardrailReading {
  guardrail: RampGuardrail;
  action: RampAction;
  broken: boolean;
  detail: string;
}

/** What the next step waits for; null at the last step once done, or when not running. */
export interface RampGate {
  /** The step it would go to, and its coverage; null from the last step (to done). */
  nextStep: number | null;
  nextCoverage: number | null;
  /** Epoch ms when the step's hours are up. */
  holdUntil: number;
  minPerArm: number;
  /** The smaller arm's exposed. */
  exposedPerArm: number;
}

/** The one change the engine (or a person, resume) makes to a ramp. */
export type RampMove =
  | { kind: 'stay' }
  | { kind: 'advance'; step: number }
  | { kind: 'done' }
  | { kind: 'hold'; reason: string }
  | { kind: 'rollback'; reason: string }
  /** A person's only: a held ramp runs again from its step. */
  | { kind: 'resume'; reason: string };

/** The engine's reading of a ramp at one look: its guardrails, its gate and its move. */
export interface RampReading {
  guardrails: GuardrailReading[];
  gate: RampGate | null;
  move: RampMove;
}

const HOUR_MS = 60 * 60 * 1000;

/** The guardrails judged by a test at α/k: those with the α budget split among them. */
const TESTED: readonly RampGuardrail[] = [
  'conversion',
  'declines',
  'checkout_errors',
  'server_errors',
  'client_errors',
  'refunds',
  'srm',
];

/** Each guardrail's action: the ramp's, else the default. */
export function actionsOf(ramp: RampDocument): Record<RampGuardrail, RampAction> {
  // The defaults copied and overwritten: Object.fromEntries took a microsecond a call, the largest
  // share of a look when the simulated ramps (ramp-simulation.test.ts) look a million times.
  const actions = { ...DEFAULT_RAMP_ACTIONS };
  const own = ramp.guardrails;
  if (own) for (const g of RAMP_GUARDRAILS) actions[g] = own[g] ?? actions[g];
  return actions;
}

/**
 * Each tested guardrail's α: the ramp's α (0.05 unless said) shared equally (Bonferroni) among
 * the tested ones that can act (hold or roll back), so a sound variant is held or rolled back
 * by them at most α of the time; a `warn` one is judged at the same share.
 */
export function guardrailAlpha(ramp: RampDocument): number {
  return alphaOf(ramp, actionsOf(ramp));
}

function alphaOf(ramp: RampDocument, actions: Record<RampGuardrail, RampAction>): number {
  const acting = TESTED.filter((g) => actions[g] !== 'warn').length;
  return (ramp.alpha ?? DEFAULT_RAMP_ALPHA) / Math.max(1, acting);
}

/**
 * The conversion guardrail: the primary metric's shortfall, and, where the primary is not a
 * purchase (a landing test's lookups), the purchases' too, each at half its α, so a variant whose
 * Pay button never works is rolled back whatever the test is judged on; broken when either is.
 */
function conversionTest(
  seen: RampObservation,
  arms: (field: keyof ArmSignals) => readonly [ArmEvents, ArmEvents],
  alpha: number,
  plannedPerArm: number,
): TestReading {
  if (seen.primaryBuys) return shortfallTest(...arms('conversions'), alpha, plannedPerArm);
  const primary = shortfallTest(...arms('conversions'), alpha / 2, plannedPerArm);
  const purchases = shortfallTest(...arms('purchases'), alpha / 2, plannedPerArm);
  return {
    broken: primary.broken || purchases.broken,
    pValue: Math.min(1, 2 * Math.min(primary.pValue, purchases.pValue)),
    detail: purchases.broken && !primary.broken ? `purchases: ${purchases.detail}` : primary.detail,
  };
}

function tests(
  ramp: RampDocument,
  actions: Record<RampGuardrail, RampAction>,
  seen: RampObservation,
  clock: RampClock,
): Record<RampGuardrail, TestReading> {
  const alpha = alphaOf(ramp, actions);
  const arms = (field: keyof ArmSignals) =>
    [
      { exposed: seen.control.exposed, events: seen.control[field] },
      { exposed: seen.variant.exposed, events: seen.variant[field] },
    ] as const;
  const harm = (field: keyof ArmSignals) => harmTest(...arms(field), alpha, clock.plannedPerArm);
  const exposed = seen.control.exposed + seen.variant.exposed;
  const graceUntil = clock.startedAt + (ramp.noTrafficHours ?? DEFAULT_NO_TRAFFIC_HOURS) * HOUR_MS;
  const vital = (worse: boolean, what: string): TestReading => ({
    broken: worse,
    pValue: 1,
    detail: worse ? `the variant's ${what} is significantly slower` : `${what} not slower`,
  });
  return {
    conversion: conversionTest(seen, arms, alpha, clock.plannedPerArm),
    declines: harm('declines'),
    checkout_errors: harm('checkoutErrors'),
    server_errors: harm('serverErrors'),
    client_errors: harm('clientErrors'),
    refunds: harm('refunds'),
    srm: sampleRatioTest(seen.control.exposed, seen.variant.exposed, alpha, clock.plannedPerArm),
    lcp: vital(seen.lcpWorse, 'LCP'),
    inp: vital(seen.inpWorse, 'INP'),
    no_traffic: {
      broken: exposed === 0 && clock.now >= graceUntil,
      pValue: 1,
      detail: `${exposed.toLocaleString('en-US')} exposed since ${utcMinuteText(clock.startedAt)}`,
    },
  };
}

/**
 * The next step's gate of a running ramp; null when it is not running. A step's hours count from
 * its start, or from the experiment's when the ramp was set on a draft before it ran.
 */
function gateOf(ramp: RampDocument, seen: RampObservation, startedAt: number): RampGate | null {
  const { state, steps } = ramp;
  if (state.status !== 'running') return null;
  const step = steps[state.step]!;
  const last = state.step >= steps.length - 1;
  return {
    nextStep: last ? null : state.step + 1,
    nextCoverage: last ? null : steps[state.step + 1]!.coverage,
    holdUntil: stepHoldUntil(ramp, startedAt),
    minPerArm: step.minPerArm,
    exposedPerArm: Math.min(seen.control.exposed, seen.variant.exposed),
  };
}

const named = (readings: readonly GuardrailReading[]) =>
  readings.map((r) => `${r.guardrail.replace('_', ' ')} (${r.detail})`).join('; ');

/** Each guardrail's state, the gate, and the move to make now (the rules above). */
export function readRamp(ramp: RampDocument, seen: RampObservation, clock: RampClock): RampReading {
  const actions = actionsOf(ramp);
  const results = tests(ramp, actions, seen, clock);
  const guardrails = RAMP_GUARDRAILS.map((guardrail) => ({
    guardrail,
    action: actions[guardrail],
    broken: results[guardrail].broken,
    detail: results[guardrail].detail,
  }));
  const gate = gateOf(ramp, seen, clock.startedAt);
  const status = ramp.state.status;
  if (status === 'rolled_back') return { guardrails, gate, move: { kind: 'stay' } };
  const broken = (action: RampAction) => guardrails.filter((g) => g.broken && g.action === action);
  const rollback = broken('rollback');
  if (rollback.length > 0)
    return {
      guardrails,
      gate,
      move: { kind: 'rollback', reason: `${ENGINE_REASON_PREFIX}${named(rollback)}` },
    };
  const hold = broken('hold');
  if (hold.length > 0 && status !== 'held')
    return {
      guardrails,
      gate,
      move: { kind: 'hold', reason: `${ENGINE_REASON_PREFIX}${named(hold)}` },
    };
  if (gate === null || clock.now < gate.holdUntil || gate.exposedPerArm < gate.minPerArm)
    return { guardrails, gate, move: { kind: 'stay' } };
  const move: RampMove =
    gate.nextStep === null ? { kind: 'done' } : { kind: 'advance', step: gate.nextStep };
  return { guardrails, gate, move };
}

/** The ramp after `move` at `now`; the same ramp for `stay`. */
export function movedRamp(ramp: RampDocument, move: RampMove, now: number): RampDocument {
  // Written only by the moves that set it: most looks stay, and a date's text is not free.
  const since = () => new Date(now).toISOString();
  switch (move.kind) {
    case 'stay':
      return ramp;
    case 'advance':
      return { ...ramp, state: { step: move.step, since: since(), status: 'running' } };
    case 'done':
      return { ...ramp, state: { ...ramp.state, status: 'done' } };
    case 'hold':
      return { ...ramp, state: { ...ramp.state, status: 'held', reason: move.reason } };
    case 'resume':
      return { ...ramp, state: { ...ramp.state, status: 'running', reason: move.reason } };
    case 'rollback':
      return {
        ...ramp,
        state: { ...ramp.state, since: since(), status: 'rolled_back', reason: move.reason },
      };
  }
}
