import type { HoldoutDocument } from '../../shared/config/holdout';
import type { ExperimentResultsAnswer } from '../../shared/console-api/experiment-results';
import { HOLDOUT_PIN, holdoutUnit } from '../experiments/holdout/holdout';
import { type AlertFacts, alertKey, type DueAlert } from './alert-rules';

/**
 * When the holdout needs a marketer's eyes (docs/experiments.md, "The holdout"): the measured
 * sample, which gets every winner shipped since the holdout started, makes significantly less
 * mature net revenue per visitor than the held out (the winners shipped since, together, cost
 * revenue), or its two groups are not the same size (a sample ratio mismatch: something draws or
 * counts them unevenly, and its results cannot be trusted). Read from the results the console
 * shows (worker/experiments/answer/holdout-results.ts), while it runs or is analysed; each is
 * sent once per holdout, keyed by its seed (`holdout:<seed>|1|holdout_worse|measured`), so a new
 * holdout is a new comparison. Pure, as alert-rules.ts is.
 */
export function holdoutAlertsDue(
  holdout: HoldoutDocument,
  results: ExperimentResultsAnswer,
): DueAlert[] {
  if (holdout.status === 'ended') return [];
  const alert = (facts: AlertFacts): DueAlert => ({
    key: alertKey(
      holdoutUnit(holdout.seed),
      1,
      facts.kind,
      'variant' in facts ? facts.variant : undefined,
    ),
    experiment: HOLDOUT_PIN,
    name: results.name,
    phase: 1,
    facts,
  });
  const due: DueAlert[] = [];
  if (results.sampleRatio.alarm)
    due.push(
      alert({
        kind: 'holdout_srm',
        pValue: results.sampleRatio.pValue,
        arms: results.variants.map(({ variant, exposed, share }) => ({ variant, exposed, share })),
      }),
    );
  const worse = worseRevenue(results);
  if (worse !== null) due.push(alert(worse));
  return due;
}

/** The measured sample's mature net revenue per visitor, when significantly below the held out's. */
function worseRevenue(results: ExperimentResultsAnswer): AlertFacts | null {
  const held = results.variants.find((variant) => variant.control);
  const measured = results.variants.find((variant) => !variant.control);
  const revenue = measured?.metrics.find((metric) => metric.metric === 'mature_revenue');
  const heldRevenue = held?.metrics.find((metric) => metric.metric === 'mature_revenue');
  if (!measured || !held || revenue?.verdict !== 'worse' || !heldRevenue) return null;
  const interval = revenue.relativeInterval;
  return {
    kind: 'holdout_worse',
    variant: measured.variant,
    mean: revenue.mean,
    controlMean: heldRevenue.mean,
    currency: results.mainCurrency,
    relativeLift: revenue.relativeLift,
    interval: interval === null ? null : [interval.lower, interval.upper],
    matureExposed: [held.matureExposed, measured.matureExposed],
  };
}
