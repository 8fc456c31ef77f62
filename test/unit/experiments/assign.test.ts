import { describe, expect, it } from 'vitest';
import { chiSquareUpperTail } from '../../../shared/statistics/distributions';
import {
  fnv1a,
  hashShare,
  inCoverage,
  inRange,
  layerBucket,
  pickedShares,
  pickVariant,
  saltedShare,
} from '../../../worker/experiments/assignment/assign';
import { checkSampleRatio } from '../../../worker/experiments/statistics/statistics';
import { mulberry32 } from './simulation';
import { seededVisitorIds } from './visitor-ids';

/**
 * The assignment of visitors to layers, experiments and variants (worker/experiments/assignment/assign.ts),
 * held to GrowthBook's published hash values and tested as a statistician would: over 100 000
 * visitor ids, Pearson's chi-square of the shares against the weights, and of contingency tables
 * for independence, each at α = 0.001. With a fixed seed the ids, hence the numbers, are the same
 * on every run; a sound hash would fail one such test in a thousand seeds.
 */

const ALPHA = 0.001;
const IDS = Array.from({ length: 100_000 }, seededVisitorIds(mulberry32(20_260_501)));

type Variants = readonly (readonly [string, number])[];

/** Visitors per variant key over all ids. */
function countPicks(seed: string, variants: Variants): Map<string, number> {
  const counts = new Map<string, number>(variants.map(([key]) => [key, 0]));
  for (const id of IDS) {
    const key = pickVariant(seed, id, variants);
    if (key !== null) counts.set(key, counts.get(key)! + 1);
  }
  return counts;
}

interface Independence {
  chiSquare: number;
  degreesOfFreedom: number;
  pValue: number;
}

/**
 * Pearson's chi-square test of independence of two labels of each id: the table of their
 * counts against the products of its margins, (rows − 1)(columns − 1) degrees of freedom.
 */
function independence(label: (id: string) => readonly [row: string, column: string]): Independence {
  const cells = new Map<string, number>();
  const rows = new Map<string, number>();
  const columns = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const id of IDS) {
    const [row, column] = label(id);
    bump(cells, `${row}|${column}`);
    bump(rows, row);
    bump(columns, column);
  }
  let chiSquare = 0;
  for (const [row, rowTotal] of rows) {
    for (const [column, columnTotal] of columns) {
      const expected = (rowTotal * columnTotal) / IDS.length;
      chiSquare += ((cells.get(`${row}|${column}`) ?? 0) - expected) ** 2 / expected;
    }
  }
  const degreesOfFreedom = (rows.size - 1) * (columns.size - 1);
  const pValue = chiSquareUpperTail(chiSquare, degreesOfFreedom);
  console.info(
    `independence: χ² = ${chiSquare.toFixed(2)}, df ${degreesOfFreedom}, p = ${pValue.toPrecision(3)}`,
  );
  return { chiSquare, degreesOfFreedom, pValue };
}

const tenth = (share: number) => String(Math.floor(share * 10));

describe('the hash', () => {
  it('is tested over 100 000 different ids shaped like crypto.randomUUID’s', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(IDS.filter((id) => !uuid.test(id))).toEqual([]);
    expect(new Set(IDS).size).toBe(IDS.length);
  });

  it('is GrowthBook’s version 2, on the SDK spec’s own values', () => {
    // growthbook/growthbook packages/sdk-js/test/cases.json, "hash", the version 2 cases.
    const cases: [seed: string, value: string, share: number][] = [
      ['seed', 'a', 0.0505],
      ['seed', 'b', 0.2696],
      ['foo', 'ab', 0.2575],
      ['foo', 'def', 0.2019],
      ['89123klj', '8952klfjas09ujkasdf', 0.124],
      ['90850943850283058242805', '123', 0.7516],
      ['()**(%$##$%#$#', '___)((*":&', 0.0128],
    ];
    for (const [seed, value, share] of cases) expect(hashShare(seed, value)).toBe(share);
  });

  it('is fnv1a(String(fnv1a(seed + id))) % 10000 / 10000, computed without the strings', () => {
    // FNV-1a's reference vectors, and a hash continued over a second text.
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(fnv1a('bar', fnv1a('foo'))).toBe(0xbf9cf968);
    const differing = ['', 'flow#layer', 'E-2d81aa#coverage', 'split'].flatMap((seed) =>
      IDS.slice(0, 25_000).filter(
        (id) => hashShare(seed, id) !== (fnv1a(String(fnv1a(seed + id))) % 10_000) / 10_000,
      ),
    );
    expect(differing).toEqual([]);
  });

  it('gives a share in [0, 1) in steps of 1/10 000, spread evenly over tenths', () => {
    const shares = IDS.map((id) => hashShare('E-5a0c11', id));
    expect(Math.min(...shares)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...shares)).toBeLessThan(1);
    expect(shares.filter((share) => Math.round(share * 10_000) / 10_000 !== share)).toEqual([]);
    const counts = new Map<string, number>();
    for (const share of shares) counts.set(tenth(share), (counts.get(tenth(share)) ?? 0) + 1);
    const check = checkSampleRatio([...counts.values()].map((exposed) => ({ exposed, weight: 1 })));
    expect(check.degreesOfFreedom).toBe(9);
    expect(check.pValue).toBeGreaterThan(ALPHA);
  });

  it('keeps today’s draws: a change of hash or salt would move every visitor mid-test', () => {
    const id = '5f0c6a8e-3b1d-4c2a-9e7f-1a2b3c4d5e6f';
    expect(hashShare('split', id)).toBe(0.5112);
    expect(layerBucket('flow', id)).toBe(0.3604);
    // Its coverage share is 0.3199.
    expect(inCoverage('split', id, 0.32)).toBe(true);
    expect(inCoverage('split', id, 0.3199)).toBe(false);
    expect(
      pickVariant('split', id, [
        ['default', 50],
        ['lp11ch8/vc', 50],
      ]),
    ).toBe('lp11ch8/vc');
    // The salts are the seed's suffixes '#layer', '#coverage' and the holdout's '#holdout',
    // hashed as GrowthBook would.
    const unsalted = IDS.slice(0, 10_000).filter(
      (other) =>
        layerBucket('flow', other) !== hashShare('flow#layer', other) ||
        inCoverage('split', other, 0.5) !== hashShare('split#coverage', other) < 0.5 ||
        saltedShare('h-1', '#holdout', other) !== hashShare('h-1#holdout', other),
    );
    expect(unsalted).toEqual([]);
  });
});

describe('the variants’ shares fit the weights (chi-square over 100 000 ids, α = 0.001)', () => {
  const designs: [seed: string, weights: Record<string, number>][] = [
    ['E-fifty', { a: 50, b: 50 }],
    ['E-tenth', { control: 10, b: 90 }],
    ['E-ramp', { a: 1, b: 2, c: 3, d: 4, e: 5 }],
    ['E-thirds', { a: 1, b: 1, c: 1 }],
    ['E-fraction', { a: 0.2, b: 0.3, c: 0.5 }],
    ['E-paused', { control: 1, paused: 0, c: 3 }],
  ];

  for (const [seed, weights] of designs) {
    const variants = Object.entries(weights);
    it(`${variants.map(([, weight]) => weight).join('/')}`, () => {
      const counts = countPicks(seed, variants);
      const check = checkSampleRatio(
        variants.map(([key, weight]) => ({ exposed: counts.get(key)!, weight })),
      );
      const drawn = variants.filter(([, weight]) => weight > 0).length;
      console.info(
        `${seed}: χ² = ${check.chiSquare.toFixed(2)}, df ${check.degreesOfFreedom}, p = ${check.pValue.toFixed(3)}`,
      );
      expect(check.degreesOfFreedom).toBe(drawn - 1);
      expect(check.pValue).toBeGreaterThan(ALPHA);
      for (const [key, weight] of variants) if (weight === 0) expect(counts.get(key)).toBe(0);
      expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(IDS.length);
    });
  }

  it('and the same test sees a split one point off: 51/49 read as 50/50', () => {
    const counts = countPicks('E-fifty', [
      ['a', 51],
      ['b', 49],
    ]);
    const check = checkSampleRatio([
      { exposed: counts.get('a')!, weight: 50 },
      { exposed: counts.get('b')!, weight: 50 },
    ]);
    expect(check.pValue).toBeLessThan(ALPHA);
  });
});

describe('the draws are independent (chi-square of contingency tables, 100 000 ids, α = 0.001)', () => {
  it('of two layers: their buckets, cut in tenths', () => {
    const test = independence((id) => [
      tenth(layerBucket('flow', id)),
      tenth(layerBucket('paywall', id)),
    ]);
    expect(test.degreesOfFreedom).toBe(81);
    expect(test.pValue).toBeGreaterThan(ALPHA);
  });

  it('of two experiments in different layers, ranges and coverage included', () => {
    // Who is in A (and in which arm) says nothing of who is in B (and in which arm).
    const a = (id: string) =>
      inRange(layerBucket('flow', id), [0, 0.6]) && inCoverage('E-a', id, 0.7)
        ? pickVariant('E-a', id, [
            ['control', 1],
            ['b', 1],
          ])!
        : 'out';
    const b = (id: string) =>
      inRange(layerBucket('paywall', id), [0.2, 1])
        ? pickVariant('E-b', id, [
            ['x', 1],
            ['y', 2],
            ['z', 3],
          ])!
        : 'out';
    const test = independence((id) => [a(id), b(id)]);
    expect(test.degreesOfFreedom).toBe(6);
    expect(test.pValue).toBeGreaterThan(ALPHA);
  });

  it('of the layer’s bucket and the variant within an experiment’s range', () => {
    const variants = [
      ['control', 1],
      ['b', 1],
      ['c', 2],
    ] as const;
    for (const [layerSeed, experimentSeed] of [
      ['landing', 'E-5a0c11'],
      // An experiment given its layer's seed: the salt keeps the two draws apart.
      ['landing', 'landing'],
    ]) {
      const inside = (id: string) => inRange(layerBucket(layerSeed!, id), [0.25, 0.75]);
      const test = independence((id) => [
        inside(id) ? String(Math.floor((layerBucket(layerSeed!, id) - 0.25) * 10)) : 'out',
        pickVariant(experimentSeed!, id, variants)!,
      ]);
      expect(test.degreesOfFreedom).toBe(5 * 2);
      expect(test.pValue).toBeGreaterThan(ALPHA);
    }
  });

  it('of the coverage and the variant: whoever enters gets the weights’ shares', () => {
    const test = independence((id) => [
      String(inCoverage('E-88b3d0', id, 0.3)),
      pickVariant('E-88b3d0', id, [
        ['private', 1],
        ['guide', 1],
        ['chat', 1],
      ])!,
    ]);
    expect(test.degreesOfFreedom).toBe(2);
    expect(test.pValue).toBeGreaterThan(ALPHA);
  });

  it('and the test sees a dependence: a coverage drawn from the variant’s own hash', () => {
    // What a coverage without its salt would be: the share both draws read is the same one.
    const test = independence((id) => [
      String(hashShare('E-88b3d0', id) < 0.3),
      pickVariant('E-88b3d0', id, [
        ['private', 1],
        ['guide', 1],
        ['chat', 1],
      ])!,
    ]);
    expect(test.pValue).toBeLessThan(ALPHA);
  });
});

describe('a visitor’s assignment', () => {
  const fifty = [
    ['a', 1],
    ['b', 1],
  ] as const;

  it('is the same for the same id and seed, every time', () => {
    const first = IDS.map((id) => pickVariant('E-stable', id, fifty));
    const again = IDS.map((id) => pickVariant('E-stable', id, fifty));
    expect(again).toEqual(first);
  });

  it('differs between seeds: two 50/50 experiments agree for about half the visitors', () => {
    const agree = IDS.filter(
      (id) => pickVariant('E-one', id, fifty) === pickVariant('E-two', id, fifty),
    ).length;
    // 0.5 ± 6 standard deviations (0.0016 each) of 100 000 coin flips.
    expect(Math.abs(agree / IDS.length - 0.5)).toBeLessThan(0.01);
  });

  it('is never a paused variant, and none when no weight is above 0', () => {
    const picked = new Set(
      IDS.flatMap((id) => [
        pickVariant('E-x', id, [
          ['a', 0],
          ['b', 2],
          ['c', 0],
        ]),
        pickVariant('E-x', id, [
          ['a', 0],
          ['b', 0],
        ]),
        pickVariant('E-x', id, []),
      ]),
    );
    expect(picked).toEqual(new Set(['b', null]));
    expect(
      pickVariant('E-x', IDS[0]!, [
        ['a', 0],
        ['b', 0],
      ]),
    ).toBeNull();
  });

  it('moves, when 50/50 becomes 60/40, only the visitors between the old and new boundary', () => {
    const moves = new Set<string>();
    let moved = 0;
    for (const id of IDS) {
      const before = pickVariant('E-w', id, [
        ['a', 50],
        ['b', 50],
      ]);
      const after = pickVariant('E-w', id, [
        ['a', 60],
        ['b', 40],
      ]);
      const between = hashShare('E-w', id) >= 0.5 && hashShare('E-w', id) < 0.6;
      if (before !== after || between) {
        moved++;
        moves.add(`${before}→${after}, between: ${between}`);
      }
    }
    expect(moves).toEqual(new Set(['b→a, between: true']));
    expect(Math.abs(moved / IDS.length - 0.1)).toBeLessThan(0.005);
  });

  it('keeps its variant when another is paused, unless it was that one', () => {
    const three = [
      ['a', 1],
      ['b', 1],
      ['c', 1],
    ] as const;
    const bPaused = [
      ['a', 1],
      ['b', 0],
      ['c', 1],
    ] as const;
    const moves = new Map<string, number>();
    for (const id of IDS) {
      const move = `${pickVariant('E-p', id, three)}→${pickVariant('E-p', id, bPaused)}`;
      moves.set(move, (moves.get(move) ?? 0) + 1);
    }
    expect([...moves.keys()].sort()).toEqual(['a→a', 'b→a', 'b→c', 'c→c']);
  });

  it('stays covered, in the same variant, when the coverage rises', () => {
    const covered = IDS.filter((id) => inCoverage('E-c', id, 0.3));
    expect(covered.filter((id) => !inCoverage('E-c', id, 0.6))).toEqual([]);
    expect(Math.abs(covered.length / IDS.length - 0.3)).toBeLessThan(0.01);
    expect(IDS.filter((id) => inCoverage('E-c', id, 0.6)).length).toBeGreaterThan(59_000);
    expect(IDS.every((id) => inCoverage('E-c', id, 1))).toBe(true);
  });
});

describe('a layer’s ranges', () => {
  it('are [from, to): the start in, the end out; no range is the whole layer', () => {
    expect(inRange(0, [0, 0.3])).toBe(true);
    expect(inRange(0.2999, [0, 0.3])).toBe(true);
    expect(inRange(0.3, [0, 0.3])).toBe(false);
    expect(inRange(0.3, [0.3, 1])).toBe(true);
    expect(inRange(0.9999, [0.3, 1])).toBe(true);
    expect(inRange(0.9999)).toBe(true);
    expect(inRange(0)).toBe(true);
  });

  it('put each visitor in exactly one of ranges that tile the layer, in their shares', () => {
    const ranges: [number, number][] = [
      [0, 0.3],
      [0.3, 0.45],
      [0.45, 1],
    ];
    const counts = [0, 0, 0];
    let notInOne = 0;
    for (const id of IDS) {
      const bucket = layerBucket('paywall', id);
      const holding = ranges.filter((range) => inRange(bucket, range));
      if (holding.length === 1) counts[ranges.indexOf(holding[0]!)]!++;
      else notInOne++;
    }
    expect(notInOne).toBe(0);
    const check = checkSampleRatio(
      ranges.map(([from, to], i) => ({ exposed: counts[i]!, weight: to - from })),
    );
    expect(check.pValue).toBeGreaterThan(ALPHA);
  });
});

describe('the shares the weights draw (pickedShares)', () => {
  it('are the weights’ shares to 1/10 000, and what pickVariant gives', () => {
    for (const variants of [
      [
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['d', 4],
        ['e', 5],
      ],
      [
        ['a', 1],
        ['b', 0],
        ['c', 1],
        ['d', 1],
      ],
    ] as const) {
      const shares = pickedShares(variants);
      const total = variants.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [key, weight] of variants) {
        expect(Math.abs(shares[key]! - weight / total)).toBeLessThanOrEqual(0.0001);
      }
      expect(Object.values(shares).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    // 1:98 draws 102 of the 10 000 steps for the first, not 101.01.
    expect(
      pickedShares([
        ['a', 1],
        ['b', 98],
      ]),
    ).toEqual({ a: 0.0102, b: 0.9898 });
    expect(
      pickedShares([
        ['a', 0],
        ['b', 0],
      ]),
    ).toEqual({ a: 0, b: 0 });
  });
});
