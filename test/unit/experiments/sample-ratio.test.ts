import { describe, expect, it } from 'vitest';
import { pickVariant } from '../../../worker/experiments/assignment/assign';
import { checkSampleRatio } from '../../../worker/experiments/statistics/statistics';
import { binomial, mulberry32, multinomial } from './simulation';

/** docs/statistics.md: a sound phase's chance of an SRM alarm at some look. */
const DOCUMENTED_SRM = { hundredLooks: 0.011, twoThousandLooks: 0.039 };

describe('the sample-ratio check', () => {
  it('alarms on 51/49 of 100 000 visitors meant to be 50/50', () => {
    const check = checkSampleRatio([
      { exposed: 51_000, weight: 50 },
      { exposed: 49_000, weight: 50 },
    ]);
    expect(check.chiSquare).toBeCloseTo(40, 10);
    expect(check.degreesOfFreedom).toBe(1);
    expect(check.pValue).toBeCloseTo(2.5396e-10, 13);
    expect(check.alarm).toBe(true);
  });

  it('alarms at the nominal rate on honest splits of 100 000 visitors', () => {
    const random = mulberry32(20_260_404);
    const designs = [
      [50, 50],
      [20, 30, 50],
    ];
    for (const weights of designs) {
      const shares = weights.map((weight) => weight / 100);
      const runs = 20_000;
      let alarms = 0;
      let belowFivePercent = 0;
      for (let run = 0; run < runs; run++) {
        const exposures = multinomial(100_000, shares, random);
        const check = checkSampleRatio(
          exposures.map((exposed, arm) => ({ exposed, weight: weights[arm]! })),
        );
        if (check.alarm) alarms += 1;
        if (check.pValue < 0.05) belowFivePercent += 1;
      }
      console.info(
        `SRM on ${runs} honest ${weights.join('/')} splits: ${(alarms / runs) * 100}% alarms, ` +
          `${(belowFivePercent / runs) * 100}% below p = 0.05`,
      );
      // 20 alarms expected at 0.1%; 3 standard deviations either side of 1000 at 5%.
      expect(alarms / runs).toBeLessThanOrEqual(0.002);
      expect(alarms).toBeGreaterThan(0);
      expect(belowFivePercent / runs).toBeGreaterThan(0.045);
      expect(belowFivePercent / runs).toBeLessThan(0.055);
    }
  });

  /**
   * The check runs at every look at the phase, and a phase alarms if any look does: its false
   * alarm rate grows with the looks. docs/statistics.md states it for a sound 50/50 split read
   * 100 and 2,000 times up to 200,000 visitors; the runs check those figures to within 3.29
   * binomial standard errors (one seed in 1000 outside for a sound figure).
   */
  it('alarms in some look of a sound phase as often as the docs say, by number of looks', () => {
    const random = mulberry32(20_261_131);
    const runs = 1000;
    const shareAlarmed = (looks: number) => {
      let alarmed = 0;
      for (let run = 0; run < runs; run++) {
        const exposed = [0, 0];
        for (let look = 0; look < looks; look++) {
          const visitors = Math.round(200_000 / looks);
          const first = binomial(visitors, 0.5, random);
          exposed[0]! += first;
          exposed[1]! += visitors - first;
          const check = checkSampleRatio(exposed.map((count) => ({ exposed: count, weight: 1 })));
          if (check.alarm) {
            alarmed++;
            break;
          }
        }
      }
      return alarmed / runs;
    };
    const within = (share: number, documented: number) =>
      Math.abs(share - documented) <= 3.29 * Math.sqrt((documented * (1 - documented)) / runs);
    const [hundred, twoThousand] = [shareAlarmed(100), shareAlarmed(2000)];
    console.info(
      `SRM per phase: ${(hundred * 100).toFixed(1)}% over 100 looks, ${(twoThousand * 100).toFixed(1)}% over 2,000`,
    );
    expect(within(hundred, DOCUMENTED_SRM.hundredLooks)).toBe(true);
    expect(within(twoThousand, DOCUMENTED_SRM.twoThousandLooks)).toBe(true);
  }, 30_000);

  it('reads weights as shares of their sum', () => {
    const check = checkSampleRatio([
      { exposed: 250, weight: 1 },
      { exposed: 750, weight: 3 },
    ]);
    expect(check.chiSquare).toBe(0);
    expect(check.pValue).toBe(1);
  });

  it('alarms when a paused variant (weight 0) still receives visitors', () => {
    const check = checkSampleRatio([
      { exposed: 5000, weight: 100 },
      { exposed: 3, weight: 0 },
    ]);
    expect(check.alarm).toBe(true);
    expect(check.pValue).toBe(0);
    expect(
      checkSampleRatio([
        { exposed: 5000, weight: 60 },
        { exposed: 5000, weight: 40 },
        { exposed: 0, weight: 0 },
      ]).degreesOfFreedom,
    ).toBe(1);
  });

  it('stays quiet with no visitors yet, or a single live arm', () => {
    expect(
      checkSampleRatio([
        { exposed: 0, weight: 50 },
        { exposed: 0, weight: 50 },
      ]).alarm,
    ).toBe(false);
    expect(checkSampleRatio([{ exposed: 4000, weight: 100 }])).toMatchObject({
      alarm: false,
      pValue: 1,
    });
  });
});

describe('the real assignment (pickVariant, the hash every experiment and the split draw with)', () => {
  // Weights whose shares the hash's 1/10 000 steps hold exactly (pickedShares), so the check can
  // expect the weights themselves; 1/3 is drawn as 0.3334 and would need pickedShares instead.
  const weightSets = [
    [50, 50],
    [10, 90],
    [1, 99],
    [20, 30, 50],
    [25, 25, 25, 25],
    [1, 3],
    [2, 2, 4],
  ];

  /** A visitor id as the worker mints them (a v4 UUID), from a seeded source. */
  const visitorIds = (random: () => number) => {
    const hex = (digits: number) =>
      Math.floor(random() * 16 ** digits)
        .toString(16)
        .padStart(digits, '0');
    return () =>
      `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + Math.floor(random() * 4)).toString(16)}${hex(3)}-${hex(12)}`;
  };

  // p > 0.001 each: a sound draw fails one of seven sets 0.7% of the time (seeded here, so never
  // by chance), while a 51/49 lean at this size has p below 1e-5.
  it('fits the weights over 50 000 visitors (chi-square p > 0.001) for several weight sets', () => {
    const nextId = visitorIds(mulberry32(20_260_405));
    for (const weights of weightSets) {
      const variants = weights.map((weight, i) => [`v${i}`, weight] as const);
      const exposed = new Map<string, number>();
      for (let visitor = 0; visitor < 50_000; visitor++) {
        const key = pickVariant('split', nextId(), variants)!;
        exposed.set(key, (exposed.get(key) ?? 0) + 1);
      }
      const check = checkSampleRatio(
        weights.map((weight, i) => ({ exposed: exposed.get(`v${i}`) ?? 0, weight })),
      );
      expect(check.pValue, `weights ${weights.join('/')}`).toBeGreaterThan(0.001);
    }
  }, 30_000);
});
