import type {
  ExperimentResultsAnswer,
  ExperimentVariantResults,
} from '../../../shared/console-api/experiment-results';
import type { ArmSignals, RampObservation } from './ramp-engine';

/**
 * What a ramp's engine reads of an experiment's results in its live phase (the answer the
 * console shows and the alerts read, worker/alerts/results-reader.ts): per arm the exposed (from
 * the pages the worker served), the declines and the checkout errors (declines of class
 * `processing_error`), both from the worker's own reading of the charge answers, the refunds
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
    control: signalsOf(control),
    variant: signalsOf(variant),
    lcpWorse: worse('lcp'),
    inpWorse: worse('inp'),
  };
}

function signalsOf(arm: ExperimentVariantResults): ArmSignals {
  const errors = arm.guardrails.declineClasses.find((c) => c.declineClass === 'processing_error');
  return {
    exposed: arm.exposed,
    declines: arm.guardrails.declines.count,
    checkoutErrors: errors?.count ?? 0,
    refunds: arm.guardrails.refunds.count,
  };
}
