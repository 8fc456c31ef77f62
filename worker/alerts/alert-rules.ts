import type { ExperimentDocument } from '../../shared/config/experiments';
import type {
  ExperimentGuardrail,
  ExperimentResultsAnswer,
  ExperimentVariantResults,
} from '../../shared/console-api/experiment-results';

/**
 * When an experiment needs a marketer's eyes before its results are read (docs/operate-alerts.md): its visitors are not split as its weights say, it has run a day and exposed no one,
 * or a variant makes a payment guardrail or the pages' field LCP or INP significantly worse. Pure: what is due is a function of
 * the experiment, its results in the live phase, and the time; what was already sent is the
 * delivery store's (alert-store.ts).
 */

export const ALERT_KINDS = [
  'srm',
  'no_exposures',
  'guardrail_declines',
  'guardrail_refunds',
  'guardrail_lcp',
  'guardrail_inp',
  'reminders_missed',
  'ramp',
  'holdout_srm',
  'holdout_worse',
  'break_glass',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** A running experiment that exposed no one this long after it started is reported. */
export const NO_EXPOSURES_AFTER_MS = 24 * 60 * 60 * 1000;

export interface ArmCount {
  variant: string;
  exposed: number;
  /** The share its weights give it, 0–1. */
  share: number;
}

/** What each kind reports, beyond the experiment and the phase. */
export type AlertFacts =
  | { kind: 'srm'; pValue: number; arms: ArmCount[] }
  | { kind: 'no_exposures'; startedAt: string; hours: number }
  | {
      kind: 'guardrail_declines' | 'guardrail_refunds';
      variant: string;
      variantName: string;
      rate: number;
      controlRate: number;
      relativeLift: number | null;
      interval: [number, number] | null;
    }
  | {
      kind: 'guardrail_lcp' | 'guardrail_inp';
      variant: string;
      variantName: string;
      /** The 75th percentiles in ms, and the samples behind the variant's. */
      p75: number;
      controlP75: number;
      samples: number;
      interval: [number, number];
    }
  /**
   * Not an experiment's: renewal reminders whose charge passed before the product API was asked
   * (worker/lifecycle/reminders.ts), as the first run of `day` (UTC) that missed some saw them.
   */
  | { kind: 'reminders_missed'; missed: number; day: string }
  /**
   * A guarded ramp's engine acted (worker/alerts/run-ramps.ts): rolled it back, held it, or
   * found a `warn` guardrail broken; `version` is the config version it published, if any;
   * `subject` what it ramps when not an experiment's variant (a roll-out, a route).
   */
  | {
      kind: 'ramp';
      action: 'rollback' | 'hold' | 'warn';
      reason: string;
      version: string | null;
      subject?: 'roll_out' | 'route';
    }
  /** The holdout's two groups not the same size (./holdout-alerts.ts). */
  | { kind: 'holdout_srm'; pValue: number; arms: ArmCount[] }
  /**
   * The holdout's measured sample (`variant`) significantly below the held out on mature net
   * revenue per visitor (./holdout-alerts.ts): the means in minor units of `currency`, and the
   * mature visitors of each group, held out first.
   */
  | {
      kind: 'holdout_worse';
      variant: string;
      mean: number;
      controlMean: number;
      currency: string | null;
      relativeLift: number | null;
      interval: [number, number] | null;
      matureExposed: [number, number];
    }
  /**
   * Not an experiment's: a version published without the second person's approval the worker
   * requires (worker/config/gate.ts), by `author`, for `reason`; `history` says whose version.
   */
  | {
      kind: 'break_glass';
      history: 'config' | 'copy';
      version: string;
      author: string;
      reason: string;
    };

export interface DueAlert {
  /**
   * Sent at most once: the experiment, the phase, the kind and, for a guardrail, the variant. A
   * condition that stays true is reported once per phase; a new phase (new weights) is a new
   * comparison, reported again if it is still wrong.
   */
  key: string;
  experiment: string;
  /** The experiment's name as the marketer wrote it. */
  name: string;
  phase: number;
  facts: AlertFacts;
}

/** The dedupe key; `|` appears in no experiment id, kind or variant key (their schemas). */
export function alertKey(
  experiment: string,
  phase: number,
  kind: AlertKind,
  variant?: string,
): string {
  return [experiment, phase, kind, ...(variant === undefined ? [] : [variant])].join('|');
}

const GUARDRAILS = [
  ['declines', 'guardrail_declines'],
  ['refunds', 'guardrail_refunds'],
] as const;

/**
 * The field vitals alerted on: the loading and the responsiveness a visitor waits for. CLS is
 * shown as a guardrail but alerts no one: a shift is seen, not waited for, and a content test
 * that moves a picture is read in its results.
 */
const VITAL_ALERTS = [
  ['lcp', 'guardrail_lcp'],
  ['inp', 'guardrail_inp'],
] as const;

/** A variant's LCP or INP significantly worse than the control's (vitals-guardrail.ts). */
function vitalAlerts(
  variant: ExperimentVariantResults,
  control: ExperimentVariantResults | undefined,
): AlertFacts[] {
  return VITAL_ALERTS.flatMap(([metric, kind]): AlertFacts[] => {
    const found = variant.vitals.find((vital) => vital.metric === metric);
    const controlP75 = control?.vitals.find((vital) => vital.metric === metric)?.p75;
    if (found?.verdict !== 'worse' || found.p75 === null || found.interval === null) return [];
    if (controlP75 === undefined || controlP75 === null) return [];
    return [
      {
        kind,
        variant: variant.variant,
        variantName: variant.name,
        p75: found.p75,
        controlP75,
        samples: found.samples,
        interval: [found.interval.lower, found.interval.upper],
      },
    ];
  });
}

/**
 * The alerts `results` (the live phase's, as the console shows them) call for on `experiment`
 * (id `id`) at `now`. Only running and paused experiments are watched: a draft has no visitors,
 * and an ended one's results are the marketer's to read.
 */
export function alertsDue(
  id: string,
  experiment: ExperimentDocument,
  results: ExperimentResultsAnswer,
  now: Date,
): DueAlert[] {
  if (experiment.status !== 'running' && experiment.status !== 'paused') return [];
  const due: DueAlert[] = [];
  const phase = results.phase;
  const alert = (facts: AlertFacts): DueAlert => ({
    key: alertKey(id, phase, facts.kind, 'variant' in facts ? facts.variant : undefined),
    experiment: id,
    name: experiment.name,
    phase,
    facts,
  });

  if (results.sampleRatio.alarm)
    due.push(
      alert({
        kind: 'srm',
        pValue: results.sampleRatio.pValue,
        arms: results.variants.map(({ variant, exposed, share }) => ({ variant, exposed, share })),
      }),
    );

  const silent = noExposuresSince(experiment, results, now);
  if (silent !== null) due.push(alert(silent));

  const control = results.variants.find((variant) => variant.control);
  for (const variant of results.variants) {
    if (variant.control) continue;
    for (const [guardrail, kind] of GUARDRAILS) {
      const found: ExperimentGuardrail = variant.guardrails[guardrail];
      if (found.verdict !== 'worse') continue;
      due.push(
        alert({
          kind,
          variant: variant.variant,
          variantName: variant.name,
          rate: found.rate,
          controlRate: control?.guardrails[guardrail].rate ?? 0,
          relativeLift: found.relativeLift,
          interval:
            found.relativeInterval === null
              ? null
              : [found.relativeInterval.lower, found.relativeInterval.upper],
        }),
      );
    }
    for (const facts of vitalAlerts(variant, control)) due.push(alert(facts));
  }
  return due;
}

/**
 * A running experiment that started a day ago or more and has exposed no one: its audience,
 * coverage or trigger lets no visitor in, which only the numbers would otherwise show. Paused
 * ones expose no one by design. Only while no phase has had visitors: when a later phase began
 * is not in the document (only when the experiment started), so a phase that began an hour ago
 * and is still empty would be reported as a day's silence.
 */
function noExposuresSince(
  experiment: ExperimentDocument,
  results: ExperimentResultsAnswer,
  now: Date,
): AlertFacts | null {
  if (experiment.status !== 'running' || experiment.startedAt === undefined) return null;
  const ranFor = now.getTime() - Date.parse(experiment.startedAt);
  if (!(ranFor >= NO_EXPOSURES_AFTER_MS)) return null;
  if (results.variants.some((variant) => variant.exposed > 0)) return null;
  if (results.phases.some((phase) => phase < results.phase)) return null;
  return {
    kind: 'no_exposures',
    startedAt: experiment.startedAt,
    hours: Math.floor(ranFor / 3_600_000),
  };
}
