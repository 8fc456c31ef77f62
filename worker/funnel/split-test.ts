import type { SplitDocument } from '../../shared/config/split';

/** A source of numbers in [0, 1), like Math.random; injected so tests are deterministic. */
export type RandomSource = () => number;

export interface VariantAssignment {
  /** 'type' or 'type/subtype' (SPEC.md §4). */
  key: string;
  /** 'split_type' or 'split_type_subtype' (SPEC.md §4), sent as landing_type at sign-up. */
  landingType: string;
}

/**
 * SPEC.md §4: a random integer from 0 to 100 is placed in cumulative ranges built from the
 * weights. Weights are read as shares of their sum, so they need not add up to 100; a variant
 * with weight 0 has an empty range and is never drawn.
 */
export function drawVariant(variants: SplitDocument['variants'], random: RandomSource): string {
  const entries = Object.entries(variants);
  const total = entries.reduce((sum, [, v]) => sum + v.weight, 0);
  const roll = Math.min(99, Math.floor(random() * 100));
  let upper = 0;
  let lastDrawable: string | undefined;
  for (const [key, { weight }] of entries) {
    if (weight <= 0) continue;
    lastDrawable = key;
    upper += weight;
    // Compared as fractions of the total rather than as percentages: (14 / 100) * 100 is
    // 14.000000000000002, which would hand roll 14 to the wrong side of a 14/86 split.
    if (roll / 100 < upper / total) return key;
  }
  // Only reachable through floating-point rounding of the last bound.
  return lastDrawable ?? entries[0]![0];
}

export function landingTypeOf(key: string): string {
  return `split_${key.replace('/', '_')}`;
}
