import { sentValue, VITAL_METRICS, type VitalMetric } from '../../shared/analytics/vitals';
import type { VitalsShifts } from '../../shared/console-api/simulation';
import { bucketOf } from '../experiments/statistics/vitals-histogram';
import type { ExperimentExposure } from '../experiments/store/every-experiment-statements';
import type { VitalsSample } from '../experiments/store/vitals-statements';

/**
 * The field vitals of `npm run experiments -- simulate`'s visitors (simulate-route.ts writes them
 * with recordVitals, as the queue's consumer writes a real page's): which exposed visitors report
 * (the worker's sample rate), and what the page that exposed them measured, each metric drawn
 * from the distribution below, a variant's scaled by `--vitals`. Pure and seeded.
 *
 * - LCP: log-normal, median 1,800 ms, σ 0.6 (the spread docs/statistics.md's simulations of the
 *   guardrail assume): p75 ≈ 2,700 ms, a mobile landing's field LCP "needs improvement".
 * - INP: on 70 % of the pages (only a page the visitor used has one), log-normal, median 120 ms,
 *   σ 0.8: p75 ≈ 206 ms.
 * - CLS: only from Chromium (the platform segment `android` or `desktop`; every iOS browser is
 *   WebKit, which does not report it); 0 on 65 % of those pages (most shift nothing), the rest
 *   log-normal, median 0.04, σ 1: p75 ≈ 0.023.
 *
 * A shift multiplies every value the variant draws of that metric (CLS's zeros stay 0), so a
 * variant `--vitals b:lcp=+10%` has a p75 10 % above the control's, less the draws' noise.
 */

export const SIMULATED_VITALS = {
  lcp: { median: 1800, sigma: 0.6 },
  inp: { share: 0.7, median: 120, sigma: 0.8 },
  cls: { zeroShare: 0.65, median: 0.04, sigma: 1 },
} as const;

/** The platforms whose browsers report CLS: Chromium's (the layout-shift API is Chromium's). */
const CLS_PLATFORMS: ReadonlySet<string> = new Set(['android', 'desktop']);

/** How far a shift may go: a tenth of the values up to ten times them. */
export const VITALS_SHIFT_RANGE = { min: -90, max: 900 } as const;

/** Each variant's factor per metric: 1 unless `--vitals` shifts it. */
export type VitalsFactors = Record<string, Record<VitalMetric, number>>;

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/** The factors of `shifts`, or why not: a variant the experiment lacks. */
export function resolveVitalsShifts(
  variants: readonly string[],
  shifts: VitalsShifts,
): Result<VitalsFactors> {
  const unknown = Object.keys(shifts).find((key) => !variants.includes(key));
  if (unknown !== undefined) {
    return {
      ok: false,
      error: `--vitals names variant "${unknown}", which the experiment does not have (it has ${variants.join(', ')})`,
    };
  }
  const factors: VitalsFactors = {};
  for (const variant of variants) {
    const given = shifts[variant] ?? {};
    factors[variant] = { lcp: 1, inp: 1, cls: 1 };
    for (const metric of VITAL_METRICS) factors[variant][metric] = 1 + (given[metric] ?? 0) / 100;
  }
  return { ok: true, value: factors };
}

type Random = () => number;

/** A standard normal draw (Box–Muller), from two uniform ones. */
function standardNormal(random: Random): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const logNormal = (random: Random, median: number, sigma: number) =>
  median * Math.exp(sigma * standardNormal(random));

/**
 * What one page measured, each value as the page sends it (clamped and rounded: sentValue);
 * a metric the page does not report is absent. Always the same number of draws, so a visitor's
 * values do not depend on which metrics an earlier visitor reported.
 */
export function drawPageVitals(
  random: Random,
  platform: string,
  factors: Record<VitalMetric, number>,
): Partial<Record<VitalMetric, number>> {
  const { lcp, inp, cls } = SIMULATED_VITALS;
  const lcpValue = logNormal(random, lcp.median, lcp.sigma) * factors.lcp;
  const used = random() < inp.share;
  const inpValue = logNormal(random, inp.median, inp.sigma) * factors.inp;
  const shifted = random() >= cls.zeroShare;
  const clsTail = logNormal(random, cls.median, cls.sigma) * factors.cls;
  const values: Partial<Record<VitalMetric, number>> = { lcp: sentValue('lcp', lcpValue)! };
  if (used) values.inp = sentValue('inp', inpValue)!;
  if (CLS_PLATFORMS.has(platform)) values.cls = shifted ? sentValue('cls', clsTail)! : 0;
  return values;
}

/**
 * The samples of the exposed visitors in the worker's sample (a share `sampleRate` of them, in
 * or out as a visitor, as vitals-sample.ts draws real ones): each one page's values, the page
 * that exposed them, in the arm it names, as the consumer makes a sample of a real report
 * (record-vitals.ts vitalsSampleOf).
 */
export function simulateVitals(
  exposures: readonly ExperimentExposure[],
  options: { random: Random; sampleRate: number; factors: VitalsFactors },
): VitalsSample[] {
  const { random, sampleRate, factors } = options;
  const samples: VitalsSample[] = [];
  for (const exposure of exposures) {
    // Drawn for every visitor, sampled or not, so a rate changes who reports, not what.
    const sampled = random() < sampleRate;
    const values = drawPageVitals(random, exposure.segments.platform, factors[exposure.variant]!);
    if (!sampled) continue;
    const buckets: Partial<Record<VitalMetric, number>> = {};
    for (const [metric, value] of Object.entries(values) as [VitalMetric, number][]) {
      buckets[metric] = bucketOf(metric, value);
    }
    samples.push({
      visitorId: exposure.visitorId,
      arms: [{ experiment: exposure.experiment, variant: exposure.variant }],
      buckets,
      at: exposure.at,
    });
  }
  return samples;
}
