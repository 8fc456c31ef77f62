import { describe, expect, it } from 'vitest';
import { formatShare, sharesOfTotal, totalWeight } from '../../../console/split/shares';

describe('a variant’s share of new visitors', () => {
  it('is its weight over the sum, whatever the sum is', () => {
    const shares = sharesOfTotal({ a: { weight: 1 }, b: { weight: 1 }, c: { weight: 2 } });
    expect(shares).toEqual({ a: 0.25, b: 0.25, c: 0.5 });
    expect(Object.values(sharesOfTotal({ a: { weight: 3 }, b: { weight: 7 } }))).toEqual([
      0.3, 0.7,
    ]);
  });

  it('is 0 for a paused variant, and for everyone when no weight is positive', () => {
    expect(sharesOfTotal({ a: { weight: 10 }, paused: { weight: 0 } })).toEqual({
      a: 1,
      paused: 0,
    });
    expect(sharesOfTotal({ a: { weight: 0 }, b: { weight: 0 } })).toEqual({ a: 0, b: 0 });
  });

  it('counts a weight being typed (no number yet) or a negative one as nothing', () => {
    const variants = { a: { weight: Number.NaN }, b: { weight: -5 }, c: { weight: 5 } };
    expect(totalWeight(variants)).toBe(5);
    expect(sharesOfTotal(variants)).toEqual({ a: 0, b: 0, c: 1 });
  });

  it('reads as a percentage with at most one decimal', () => {
    expect(formatShare(0.3)).toBe('30%');
    expect(formatShare(1 / 3)).toBe('33.3%');
    expect(formatShare(0)).toBe('0%');
    expect(formatShare(1)).toBe('100%');
  });
});
