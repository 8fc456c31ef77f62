import { describe, expect, it } from 'vitest';
import {
  type RevenueBucket,
  revenueQuantile,
  revenueStatistics,
} from '../../../worker/experiments/results/revenue';
import { judgeVariant } from '../../../worker/experiments/statistics/statistics';
import { arrivalsPerLook, binomial, mulberry32, multinomial } from './simulation';

/**
 * What a purchaser spends, in minor units: mostly one plan, some a plan and an upsell, a few a
 * bundle far above the rest, the long right tail the 99th-percentile cap is there for.
 */
const AMOUNTS = [1999, 3999, 5998, 11_997, 49_999];
const AMOUNT_SHARES = [0.6, 0.25, 0.1, 0.035, 0.015];
const PURCHASE_RATE = 0.03;

describe('the always-valid interval on revenue per visitor, against simulation', () => {
  it('declares a difference in at most 5% of 1000 A/A experiments looked at 20 times', () => {
    const random = mulberry32(20_260_403);
    const plannedPerArm = 20_000;
    let declared = 0;
    for (let experiment = 0; experiment < 1000; experiment++) {
      const exposed = [0, 0];
      const purchasers = [AMOUNTS.map(() => 0), AMOUNTS.map(() => 0)];
      let anyLook = false;
      for (const arrivals of arrivalsPerLook(plannedPerArm)) {
        const toVariant = binomial(arrivals, 0.5, random);
        for (const [arm, visitors] of [arrivals - toVariant, toVariant].entries()) {
          exposed[arm]! += visitors;
          const bought = multinomial(
            binomial(visitors, PURCHASE_RATE, random),
            AMOUNT_SHARES,
            random,
          );
          for (const [i, count] of bought.entries()) purchasers[arm]![i]! += count;
        }
        const histograms = purchasers.map((counts) =>
          counts.map((visitors, i): RevenueBucket => ({ revenueMinor: AMOUNTS[i]!, visitors })),
        );
        // Capped at the 99th percentile of all arms' purchasers together, as the results page does.
        const cap = revenueQuantile(histograms.flat(), 0.99) ?? undefined;
        const arm = (i: number) => ({
          ...revenueStatistics(exposed[i]!, histograms[i]!, cap),
          nonZero: purchasers[i]!.reduce((sum, count) => sum + count, 0),
        });
        const { verdict } = judgeVariant({
          control: arm(0),
          variant: arm(1),
          plannedPerArm,
          srmAlarm: false,
        });
        anyLook ||= verdict === 'better' || verdict === 'worse';
      }
      if (anyLook) declared += 1;
    }
    console.info(`A/A revenue per visitor: a difference declared at any look in ${declared / 10}%`);
    expect(declared / 1000).toBeLessThanOrEqual(0.05);
  });
});
