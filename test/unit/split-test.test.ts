import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SplitDocument } from '../../shared/config/split';
import { drawVariant, landingTypeOf } from '../../worker/funnel/split-test';

type Variants = SplitDocument['variants'];

/** A random source that always returns `value`. */
const fixed = (value: number) => () => value;

/** A random source whose roll (floor(random() * 100)) is exactly `roll`, away from float edges. */
const rolling = (roll: number) => fixed((roll + 0.5) / 100);

/** The variant each roll 0..99 lands on, in order. */
function drawAllRolls(variants: Variants): string[] {
  return Array.from({ length: 100 }, (_, roll) => drawVariant(variants, rolling(roll)));
}

function countByVariant(draws: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of draws) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

/** Variant weights: non-negative integers or doubles, at least one of them positive. */
const weightsArb = fc
  .array(
    fc.oneof(
      fc.nat({ max: 1000 }),
      fc.constant(0),
      fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .filter((weights) => weights.some((w) => w > 0));

function variantsOf(weights: number[]): Variants {
  return Object.fromEntries(weights.map((weight, i) => [`v${i}`, { weight }]));
}

describe('drawVariant', () => {
  it('with weights 50/50 sends random 0.49 to the first variant and 0.5 to the second', () => {
    const variants = { a: { weight: 50 }, b: { weight: 50 } };
    expect(drawVariant(variants, fixed(0))).toBe('a');
    expect(drawVariant(variants, fixed(0.49))).toBe('a');
    expect(drawVariant(variants, fixed(0.5))).toBe('b');
    expect(drawVariant(variants, fixed(0.999999))).toBe('b');
  });

  it('with weights 20/30/50 places rolls 0-19, 20-49 and 50-99 in the three variants', () => {
    const variants = { a: { weight: 20 }, b: { weight: 30 }, c: { weight: 50 } };
    expect(drawVariant(variants, rolling(0))).toBe('a');
    expect(drawVariant(variants, rolling(19))).toBe('a');
    expect(drawVariant(variants, rolling(20))).toBe('b');
    expect(drawVariant(variants, rolling(49))).toBe('b');
    expect(drawVariant(variants, rolling(50))).toBe('c');
    expect(drawVariant(variants, rolling(99))).toBe('c');
    expect(countByVariant(drawAllRolls(variants))).toEqual({ a: 20, b: 30, c: 50 });
  });

  it('gives a 14/86 split exactly 14 and 86 of the 100 rolls (no float drift at the bound)', () => {
    const variants = { a: { weight: 14 }, b: { weight: 86 } };
    expect(drawVariant(variants, rolling(13))).toBe('a');
    expect(drawVariant(variants, rolling(14))).toBe('b');
    expect(countByVariant(drawAllRolls(variants))).toEqual({ a: 14, b: 86 });
  });

  it('reads weights that do not add up to 100 as shares of their sum', () => {
    expect(countByVariant(drawAllRolls({ a: { weight: 1 }, b: { weight: 1 } }))).toEqual({
      a: 50,
      b: 50,
    });
    expect(
      countByVariant(drawAllRolls({ a: { weight: 2 }, b: { weight: 3 }, c: { weight: 5 } })),
    ).toEqual({ a: 20, b: 30, c: 50 });
    expect(
      countByVariant(drawAllRolls({ a: { weight: 400 }, b: { weight: 100 }, c: { weight: 500 } })),
    ).toEqual({ a: 40, b: 10, c: 50 });
  });

  it('never draws a weight-0 variant, even at the edges of its neighbours', () => {
    const variants = { a: { weight: 0 }, b: { weight: 50 }, c: { weight: 0 }, d: { weight: 50 } };
    expect(countByVariant(drawAllRolls(variants))).toEqual({ b: 50, d: 50 });
    expect(drawVariant({ a: { weight: 100 }, z: { weight: 0 } }, fixed(0.9999999999))).toBe('a');
  });

  it('property: for any random in [0,1) and weights with one positive, draws a positive-weight variant', () => {
    fc.assert(
      fc.property(
        weightsArb,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (weights, random) => {
          const variants = variantsOf(weights);
          const key = drawVariant(variants, fixed(random));
          expect(variants[key]?.weight).toBeGreaterThan(0);
        },
      ),
    );
  });

  it('property: over all 100 rolls, integer weights get exactly their share of rolls', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 10 }),
        (raw) => {
          // Scale to weights summing to exactly 100 so each share is a whole number of rolls.
          const total = raw.reduce((sum, w) => sum + w, 0);
          fc.pre(total > 0);
          const weights = raw.map((w) => Math.floor((w * 100) / total));
          weights[weights.findIndex((w) => w > 0)]! += 100 - weights.reduce((s, w) => s + w, 0);
          const counts = countByVariant(drawAllRolls(variantsOf(weights)));
          weights.forEach((weight, i) => {
            expect(counts[`v${i}`] ?? 0).toBe(weight);
          });
        },
      ),
    );
  });
});

describe('landingTypeOf', () => {
  it("is 'split_type' for a type and 'split_type_subtype' for type/subtype", () => {
    expect(landingTypeOf('lp11ch8')).toBe('split_lp11ch8');
    expect(landingTypeOf('lp11ch8/vc')).toBe('split_lp11ch8_vc');
  });
});
