import type { VariantDocument } from '../../shared/config/split';

/** The sum of the weights; a weight that is not a finite number counts as nothing. */
export function totalWeight(variants: Record<string, VariantDocument>): number {
  return Object.values(variants).reduce(
    (sum, { weight }) => sum + (Number.isFinite(weight) && weight > 0 ? weight : 0),
    0,
  );
}

/**
 * Each variant's share of new visitors, 0 to 1: weights are shares of their sum (they need not
 * add up to 100). With no positive total, nobody would be assigned: every share is 0.
 */
export function sharesOfTotal(variants: Record<string, VariantDocument>): Record<string, number> {
  const total = totalWeight(variants);
  return Object.fromEntries(
    Object.entries(variants).map(([key, { weight }]) => [
      key,
      total > 0 && Number.isFinite(weight) && weight > 0 ? weight / total : 0,
    ]),
  );
}

const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

/** A share as people read it: 0.3 → "30%", 1/3 → "33.3%". */
export function formatShare(share: number): string {
  return percent.format(share);
}
