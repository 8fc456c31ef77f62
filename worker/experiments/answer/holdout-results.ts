import type { HoldoutDocument } from '../../../shared/config/holdout';
import type {
  ExperimentResultsAnswer,
  SegmentDimension,
} from '../../../shared/console-api/experiment-results';
import type { FunnelConfig } from '../../config/load';
import type { Bindings } from '../../env';
import { type ExperimentDesign, matureAfterDays, metricsAfter } from '../design/experiment-design';
import { HOLDOUT_PIN, holdoutUnit } from '../holdout/holdout';
import { unitResults } from './unit-results';

/**
 * The holdout's results (docs/experiments.md, "The holdout"; docs/statistics.md, "The
 * holdout"): the held out against the measured sample, read as an experiment's two arms are
 * (experiment-answer.ts), the held out as the control. So every number, interval and verdict is
 * an experiment's: mature net revenue per visitor first, the steps, revenue, refunds,
 * cancellations and retention (renewed) beside it, with the same always-valid intervals, which
 * may be looked at every day. *Better* for the measured sample says the winners shipped since
 * the start raised it.
 */

/**
 * Visitors per group the intervals are tuned to unless the holdout says: where a 5% holdout of a
 * funnel where 3% buy (revenue per visitor's spread as in test/unit/experiments/holdout-power.test.ts)
 * detects shipped winners worth +5% net revenue per visitor 8 times in 10, looked at 20 times.
 */
export const HOLDOUT_PLANNED_PER_ARM = 1_300_000;

/** How the holdout is read: two arms of equal share, the held out the control. */
export function holdoutDesign(holdout: HoldoutDocument): ExperimentDesign {
  return {
    id: HOLDOUT_PIN,
    name: `Holdout ${holdout.seed} (${holdout.percent}%)`,
    status: holdout.status,
    layer: 'holdout',
    control: 'held_out',
    names: { held_out: 'Held out', measured: 'Measured sample' },
    shares: { held_out: 0.5, measured: 0.5 },
    primaryMetric: 'mature_revenue',
    plannedPerArm: holdout.plannedPerArm ?? HOLDOUT_PLANNED_PER_ARM,
    // Exposed on their first page: every step after it is the holdout's.
    triggers: [],
    metricsShown: metricsAfter([]),
    priceTest: false,
    matureAfterDays: matureAfterDays({ variants: { held_out: { weight: 1, change: {} } } }),
    reachShare: (2 * holdout.percent) / 100,
  };
}

/** The holdout's results (split by `segment` if asked), or null when the config has none. */
export async function holdoutResults(
  env: Bindings,
  config: FunnelConfig,
  options: { now: number; segment?: SegmentDimension | undefined },
): Promise<ExperimentResultsAnswer | null> {
  const { holdout } = config.experiments;
  if (holdout === undefined) return null;
  return unitResults(env, config, holdoutUnit(holdout.seed), holdoutDesign(holdout), options);
}
