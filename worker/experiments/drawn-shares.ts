import type { SplitConfig } from '../config/schema';
import { drawVariant } from '../funnel/split-test';

/** drawVariant's roll is a whole number from 0 to 99 (SPEC.md §4). */
const ROLLS = 100;

/**
 * The share of new visitors the split really draws for each variant (0–1, by key, in the
 * split's order): drawVariant run once for every roll, counted. Whole-percent rolls round the
 * weights, so 1:1:1 is drawn 34/33/33, not in thirds; the sample-ratio check must expect what
 * the code draws, or it alarms on sound splits (worker/experiments/statistics.ts).
 */
export function drawnShares(variants: SplitConfig['variants']): Record<string, number> {
  const draws = new Map(Object.keys(variants).map((key) => [key, 0]));
  for (let roll = 0; roll < ROLLS; roll++) {
    // The middle of the roll's hundredth, not its start: floor((roll / 100) · 100) is roll − 1
    // for 29, 57 and 58 (0.29 · 100 = 28.999999999999996), which would count them twice.
    const key = drawVariant(variants, () => (roll + 0.5) / ROLLS);
    draws.set(key, (draws.get(key) ?? 0) + 1);
  }
  return Object.fromEntries([...draws].map(([key, count]) => [key, count / ROLLS]));
}
