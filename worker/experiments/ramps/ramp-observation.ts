import type {
  ExperimentResultsAnswer,
  ExperimentVariantResults,
} from '../../../shared/console-api/experiment-results';
import type { ArmSignals, RampObservation } from './ramp-engine';

/**
 * What a ramp's engine reads of an experiment's results in its live phase (the answer the
 * console shows and the alerts read, worker/alerts/results-reader.ts): per arm the exposed (from
 * the pages the worker served), those who converted on the primary metric (its `count`: the
 * steps the worker saw, the purchases it verified; buyers for revenue), the declines and the checkout errors (declines of class
 * `processing_error`), both from the worker's own reading of the charge answers, the visitors the
 * worker answered with a 5xx and those whose browser reported an error, the refunds
 * (the product API's verified events), and the field vitals' verdicts. Null when the answer has
 * no control or no variant.
 */
export function rampObservation(results: ExperimentResultsAnswer): RampObservation | null {
  const control = results.variants.find((arm) => arm.variant === results.control);
  const variant = results.variants.find((arm) => arm.variant !== results.control);
  if (!control || !variant) return null;
  const worse = (metric: 'lcp' | 'inp') =>
    variant.vitals.some((vital) => vital.metric === metric && vital.verdict === 'worse');
  return {
    control: signalsOf(control, results.primaryMetric),
    variant: signalsOf(variant, results.primaryMetric),
    primaryBuys: BUYER_METRICS.has(results.primaryMetric),
    lcpWorse: worse('lcp'),
    inpWorse: worse('inp'),
  };
}

/** The metrics whose count is the buyers (a revenue metric's count is who paid). */
const BUYER_METRICS: ReadonlySet<string> = new Set([
  'purchase',
  'revenue',
  'net_revenue',
  'mature_revenue',
]);

function signalsOf(arm: ExperimentVariantResults, primary: string): ArmSignals {
  const errors = arm.guardrails.declineClasses.find((c) => c.declineClass === 'processing_error');
  return {
    exposed: arm.exposed,
    conversions: arm.metrics.find((metric) => metric.metric === primary)?.count ?? 0,
    purchases: arm.metrics.find((metric) => metric.metric === 'purchase')?.count ?? 0,
    declines: arm.guardrails.declines.count,
    checkoutErrors: errors?.count ?? 0,
    serverErrors: arm.guardrails.serverErrors.count,
    clientErrors: arm.guardrails.clientErrors.count,
    refunds: arm.guardrails.refunds.count,
  };
}
