import type {
  ExperimentGuardrail,
  ExperimentVariantResults,
  RecoveryResult,
} from '../../../shared/console-api/experiment-results';
import { DECLINE_CLASSES, type DeclineClass } from '../../../shared/decline-class';
import type { ExperimentDesign } from '../design/experiment-design';
import { judgeVariant, type Verdict } from '../statistics/statistics';
import type { DeclineRow } from '../store/decline-statements';
import type { ErrorKind } from '../store/error-statements';
import type { LifecycleOutcome, RecoveredRow } from '../store/lifecycle-statements';
import type { ExperimentArmRow, ExperimentPhaseRows } from '../store/phase-rows';
import { conversion, NOBODY } from './metric-inputs';
import type { MetricCounts } from './totals';

/**
 * An experiment's guardrails (worker/experiments/answer/): what must not rise as a variant wins
 * (declines, their classes, refunds, cancellations) and what must not fall (renewals), each
 * judged against the control's, and the failed renewals a variant recovered.
 */

/** What a variant's guardrails are read from: the phase's arms and its lifecycle and declines. */
export interface GuardrailReading {
  design: ExperimentDesign;
  arms: Map<string, ExperimentArmRow>;
  srmAlarm: boolean;
  /** The classes any arm had a decline of, and an arm's declined visitors of one. */
  declineClasses: readonly DeclineClass[];
  declines: (variant: string, declineClass: DeclineClass) => number;
  /** An arm's visitors who met an error of one kind (error-statements.ts). */
  errors: (variant: string, kind: ErrorKind) => number;
  /** An arm's visitors with a lifecycle outcome, and its recovered revenue. */
  lifecycle: (variant: string, outcome: LifecycleOutcome) => number;
  recovered: (variant: string) => RecoveredRow[];
}

/**
 * A guardrail counts what must not rise: the statistics judge "more is better", so a rise they
 * call better is worse here. Retention (`rises: 'better'`) is the one that must not fall.
 */
function guardrail(
  control: MetricCounts,
  variant: MetricCounts,
  isControl: boolean,
  plannedPerArm: number,
  srmAlarm: boolean,
  alpha?: number,
  rises: 'worse' | 'better' = 'worse',
): ExperimentGuardrail {
  const rate = variant.n > 0 ? variant.sum / variant.n : 0;
  if (isControl) {
    return {
      count: variant.nonZero,
      rate,
      relativeLift: null,
      relativeInterval: null,
      verdict: null,
    };
  }
  const { comparison, verdict } = judgeVariant({
    control,
    variant,
    plannedPerArm,
    srmAlarm,
    ...(alpha !== undefined ? { alpha } : {}),
  });
  const flipped: Record<Verdict, Verdict> = {
    better: 'worse',
    worse: 'better',
    no_difference_yet: 'no_difference_yet',
    not_enough_data: 'not_enough_data',
    withheld_srm: 'withheld_srm',
  };
  return {
    count: variant.nonZero,
    rate,
    relativeLift: comparison?.relativeLift ?? null,
    relativeInterval: comparison?.relativeInterval ?? null,
    verdict: rises === 'better' ? verdict : flipped[verdict],
  };
}

/** A variant's declines, refunds, cancellations, renewals and errors against the control's. */
export function guardrails(
  reading: GuardrailReading,
  variant: string,
): ExperimentVariantResults['guardrails'] {
  const { design, arms } = reading;
  const isControl = variant === design.control;
  const row = arms.get(variant);
  const controlRow = arms.get(design.control);
  const rate = (of: ExperimentArmRow | undefined, key: 'declined' | 'refunded') =>
    of ? conversion(of.exposed, of[key]) : NOBODY;
  const judge = (key: 'declined' | 'refunded') =>
    guardrail(
      rate(controlRow, key),
      rate(row, key),
      isControl,
      design.plannedPerArm,
      reading.srmAlarm,
    );
  const share = (of: string, outcome: 'cancelled' | 'renewed') => {
    const arm = arms.get(of);
    return arm ? conversion(arm.exposed, reading.lifecycle(of, outcome)) : NOBODY;
  };
  const errorShare = (of: string, kind: ErrorKind) => {
    const arm = arms.get(of);
    return arm ? conversion(arm.exposed, reading.errors(of, kind)) : NOBODY;
  };
  const errors = (kind: ErrorKind) =>
    guardrail(
      errorShare(design.control, kind),
      errorShare(variant, kind),
      isControl,
      design.plannedPerArm,
      reading.srmAlarm,
    );
  const lifecycle = (outcome: 'cancelled' | 'renewed', rises: 'worse' | 'better') =>
    guardrail(
      share(design.control, outcome),
      share(variant, outcome),
      isControl,
      design.plannedPerArm,
      reading.srmAlarm,
      undefined,
      rises,
    );
  return {
    declines: judge('declined'),
    refunds: judge('refunded'),
    declineClasses: declineClassGuardrails(reading, variant),
    cancellations: lifecycle('cancelled', 'worse'),
    renewed: lifecycle('renewed', 'better'),
    serverErrors: errors('server_error'),
    clientErrors: errors('client_error'),
  };
}

/** The arms' errors by kind, as Reading reads them. */
export function errorsOf(rows: ExperimentPhaseRows): Pick<GuardrailReading, 'errors'> {
  return {
    errors: (variant, kind) =>
      rows.errors.find((row) => row.variant === variant && row.kind === kind)?.visitors ?? 0,
  };
}

/** A variant's failed renewals and recoveries, and its recovered revenue, most first. */
export function recoveryResult(reading: GuardrailReading, variant: string): RecoveryResult {
  return {
    renewalFailed: reading.lifecycle(variant, 'renewal_failed'),
    recovered: reading.lifecycle(variant, 'recovered'),
    revenue: reading
      .recovered(variant)
      .map((row) => ({
        currency: row.currency,
        amountMinor: row.amount_minor,
        renewals: row.renewals,
      }))
      .sort((a, b) => b.amountMinor - a.amountMinor || (a.currency < b.currency ? -1 : 1)),
  };
}

/** The arms' lifecycle counts and recovered revenue, as Reading reads them. */
export function lifecycleOf(
  rows: ExperimentPhaseRows,
): Pick<GuardrailReading, 'lifecycle' | 'recovered'> {
  return {
    lifecycle: (variant, outcome) =>
      rows.lifecycle.find((row) => row.variant === variant && row.outcome === outcome)?.visitors ??
      0,
    recovered: (variant) => rows.recovered.filter((row) => row.variant === variant),
  };
}

/**
 * A variant's declines by class against the control's same class. Looking at every class finds
 * one "worse" by chance far more often than α, so the classes shown share α (Bonferroni, as the
 * segments' levels do); the total above keeps its own α, and only it raises an alert.
 */
function declineClassGuardrails(
  reading: GuardrailReading,
  variant: string,
): ExperimentVariantResults['guardrails']['declineClasses'] {
  const { design, arms, declineClasses } = reading;
  const alpha = DECLINE_CLASSES_ALPHA / Math.max(1, declineClasses.length);
  const rate = (of: string, declineClass: DeclineClass) => {
    const row = arms.get(of);
    return row ? conversion(row.exposed, reading.declines(of, declineClass)) : NOBODY;
  };
  return declineClasses.map((declineClass) => ({
    declineClass,
    ...guardrail(
      rate(design.control, declineClass),
      rate(variant, declineClass),
      variant === design.control,
      design.plannedPerArm,
      reading.srmAlarm,
      alpha,
    ),
  }));
}

/** The family-wise α the decline classes shown share, as every interval of the results uses. */
const DECLINE_CLASSES_ALPHA = 0.05;

/** The classes with a decline in some arm, in DECLINE_CLASSES' order, and the arms' counts. */
export function declinesByClass(
  rows: readonly DeclineRow[],
): Pick<GuardrailReading, 'declineClasses' | 'declines'> {
  const seen = new Set(rows.filter((row) => row.visitors > 0).map((row) => row.decline_class));
  return {
    declineClasses: DECLINE_CLASSES.filter((declineClass) => seen.has(declineClass)),
    declines: (variant, declineClass) =>
      rows.find((row) => row.variant === variant && row.decline_class === declineClass)?.visitors ??
      0,
  };
}
