import type { DecisionEvidence, ExperimentDocument } from '../../shared/config/experiments';
import type {
  ExperimentMetricResult,
  ExperimentResultsAnswer,
} from '../../shared/console-api/experiment-results';
import type { ResultVerdict } from '../../shared/console-api/results';
import type { DecisionAction, ExperimentMetric } from '../../shared/experiments';
import { countText, liftText, METRIC_NAMES, verdictWord } from '../kit/result-texts';
import type { RouteDefaultReach } from './route-default-reach';

/**
 * The choices of the decision that ends an experiment, each with the verdict behind it, and the
 * evidence the decision keeps (shared/experiments.ts ExperimentDecision). The worker refuses a
 * variant shipped without a reason when its verdict was not "better" or the sample ratio alarm was
 * on (worker/experiments/config/decisions.ts); the dialog asks for the reason in the same cases.
 */

export interface DecisionOption {
  /** `keep_control`, or `roll_out:b`, `route_default:b`. */
  value: string;
  action: DecisionAction;
  variant?: string;
  label: string;
  /** The verdict behind it in words: "better: +12% (+4% to +20%) on Purchase". */
  evidence: string;
  /** The routes the decision also takes out of the split test, so that the variant reaches them. */
  leaveSplit?: readonly string[];
}

/** The metric a decision is read on: the answer's primary one, else the experiment's. */
function decisionMetric(
  experiment: ExperimentDocument,
  answer: ExperimentResultsAnswer | null,
): ExperimentMetric {
  return answer?.primaryMetric ?? experiment.metrics?.primary ?? 'purchase';
}

function primaryOf(
  answer: ExperimentResultsAnswer | null,
  variant: string,
  metric: ExperimentMetric,
): ExperimentMetricResult | null {
  const found = answer?.variants.find((v) => v.variant === variant);
  return found?.metrics.find((m) => m.metric === metric) ?? null;
}

/** The verdict a variant earned on the metric; null when there are no results to say. */
function verdictOf(
  answer: ExperimentResultsAnswer | null,
  variant: string,
  metric: ExperimentMetric,
): ResultVerdict | null {
  if (answer?.awaitingMatureSample) return null;
  return primaryOf(answer, variant, metric)?.verdict ?? null;
}

/** The results while the dialog still reads them: no verdict is said yet, nor their absence. */
export const READING = 'reading';

function evidenceText(
  experiment: ExperimentDocument,
  answer: ExperimentResultsAnswer | null | typeof READING,
  variant: string | null,
): string {
  const metric = decisionMetric(experiment, answer === READING ? null : answer);
  const on = `on ${METRIC_NAMES[metric]}`;
  if (answer === READING) return `Reading the results ${on}…`;
  if (answer === null) return `No results could be read: no verdict ${on}.`;
  if (answer.awaitingMatureSample)
    return `No verdict ${on}: the mature sample has not reached ${countText(answer.plannedPerArm)} per variant.`;
  if (variant === null) {
    const winners = answer.variants.filter(
      (v) => !v.control && verdictOf(answer, v.variant, metric) === 'better',
    );
    return winners.length === 0
      ? `No variant was better than the control ${on}.`
      : `Better than the control ${on}: ${winners.map((v) => v.variant).join(', ')}.`;
  }
  const result = primaryOf(answer, variant, metric);
  if (!result?.verdict) return `No verdict ${on}.`;
  const lift =
    result.relativeLift === null
      ? ''
      : `: ${liftText(result.relativeLift, result.relativeInterval)}`;
  return `${verdictWord(result.verdict)}${lift} ${on}.`;
}

/**
 * Every choice, the control's first, then each variant rolled out, then each made the routes'
 * default, but for the variants in `reach.hidden`: something would keep the routes' new visitors
 * from seeing them (./route-default-reach.ts), which the dialog says instead; where only the
 * split test would, the choice takes the routes out of the split with it. Null: not known yet,
 * so none is offered.
 */
export function decisionOptions(
  experiment: ExperimentDocument,
  answer: ExperimentResultsAnswer | null | typeof READING,
  routeDefaultProblem: string | null,
  reach: RouteDefaultReach | null = { hidden: {}, leavingSplit: {} },
): DecisionOption[] {
  const options: DecisionOption[] = [
    {
      value: 'keep_control',
      action: 'keep_control',
      label: `Keep the control (${experiment.control}): nothing changes for anyone`,
      evidence: evidenceText(experiment, answer, null),
    },
  ];
  const others = Object.keys(experiment.variants).filter((key) => key !== experiment.control);
  for (const key of others) {
    const name = experiment.variants[key]?.name ?? key;
    options.push({
      value: `roll_out:${key}`,
      action: 'roll_out',
      variant: key,
      label: `Roll variant ${name} out to the experiment’s audience`,
      evidence: evidenceText(experiment, answer, key),
    });
  }
  if (routeDefaultProblem === null && reach !== null)
    for (const key of others) {
      const leaveSplit = reach.leavingSplit[key];
      if (reach.hidden[key] && leaveSplit === undefined) continue;
      const name = experiment.variants[key]?.name ?? key;
      const routes = (experiment.audience.routes ?? []).join(', ');
      options.push({
        value: `route_default:${key}`,
        action: 'route_default',
        variant: key,
        label:
          leaveSplit === undefined
            ? `Make variant ${name} the default of ${routes}`
            : `Make variant ${name} the default of ${routes}, taking ${leaveSplit.join(', ')} out of the split test`,
        evidence: evidenceText(experiment, answer, key),
        ...(leaveSplit === undefined ? {} : { leaveSplit }),
      });
    }
  return options;
}

/** What the decision keeps of the results it was made on. */
export function decisionEvidence(
  experiment: ExperimentDocument,
  answer: ExperimentResultsAnswer | null,
  variant: string | undefined,
): DecisionEvidence {
  const metric = decisionMetric(experiment, answer);
  const result = variant === undefined ? null : primaryOf(answer, variant, metric);
  return {
    phase: answer?.phase ?? experiment.phase ?? 1,
    metric,
    relativeLift: result?.relativeLift ?? null,
    interval: result?.relativeInterval
      ? [result.relativeInterval.lower, result.relativeInterval.upper]
      : null,
    verdict:
      variant === undefined || answer?.awaitingMatureSample ? null : (result?.verdict ?? null),
    srmAlarm: answer?.sampleRatio.alarm ?? false,
  };
}

/** Why a reason must be typed, or null when none is needed. */
export function reasonNeeded(
  evidence: DecisionEvidence,
  variant: string | undefined,
): string | null {
  if (evidence.srmAlarm) return 'The sample ratio alarm is on: say why you end it anyway.';
  if (variant !== undefined && evidence.verdict !== 'better')
    return `Variant ${variant} did not win: say why it ships anyway.`;
  return null;
}
