/**
 * The data the results wait for before any verdict (worker/experiments/statistics/statistics.ts
 * judgeVariant), here so that the planned sample (planned-sample.ts) counts on the same rule.
 */

/** No verdict before each arm has this many exposed visitors... */
export const MIN_VISITORS_PER_ARM = 100;
/** ...and this many converters (purchasers, for revenue). */
export const MIN_CONVERSIONS_PER_ARM = 25;
