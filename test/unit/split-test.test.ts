import { describe, expect, it } from 'vitest';
import { landingTypeOf } from '../../worker/funnel/flow';

describe('landingTypeOf', () => {
  it("is 'split_type' for a type and 'split_type_subtype' for type/subtype", () => {
    expect(landingTypeOf('lp11ch8')).toBe('split_lp11ch8');
    expect(landingTypeOf('lp11ch8/vc')).toBe('split_lp11ch8_vc');
  });
});
