/** A source of numbers in [0, 1), like Math.random; injected so tests are deterministic. */
export type RandomSource = () => number;

export interface VariantAssignment {
  /** 'type' or 'type/subtype' (SPEC.md §4). */
  key: string;
  /** 'split_type' or 'split_type_subtype' (SPEC.md §4), sent as landing_type at sign-up. */
  landingType: string;
}

/** The split's `landing_type` of a variant key: `split_type` or `split_type_subtype` (SPEC.md §4). */
export function landingTypeOf(key: string): string {
  return `split_${key.replace('/', '_')}`;
}
