import { describe, expect, it } from 'vitest';
import type { SplitDocument } from '../../../shared/config/split';
import { pickedShares } from '../../../worker/experiments/assignment/assign';
import { DEFAULT_PLANNED_PER_ARM } from '../../../worker/experiments/design/experiment-design';
import type { DayArm, ExperimentDays } from '../../../worker/experiments/results/experiment-days';
import {
  REPORTING_RATES_DATE,
  USD_PER_UNIT,
} from '../../../worker/experiments/results/reporting-currency';
import {
  assumedDesign,
  buildResults,
  designOf,
} from '../../../worker/experiments/results/split-answer';
import type { ArmTotals, ExperimentTotals } from '../../../worker/experiments/results/totals';
import { compareToControl, judgeVariant } from '../../../worker/experiments/statistics/statistics';

/** The results answer of a phase from given totals (worker/experiments/results/split-answer.ts). */

const conversions = (n: number, converted: number) => ({
  n,
  sum: converted,
  sumSquares: converted,
});

function split(
  weights: Record<string, number>,
  experiment?: SplitDocument['experiment'],
): SplitDocument {
  return {
    version: 'v3',
    defaultVariant: Object.keys(weights)[0]!,
    phase: 2,
    variants: Object.fromEntries(Object.entries(weights).map(([key, weight]) => [key, { weight }])),
    ...(experiment ? { experiment } : {}),
  };
}

/** An arm of `exposed` visitors of whom `buyers` bought, each for `price` minor units of USD. */
function arm(
  variant: string,
  exposed: number,
  buyers: number,
  price = 699,
  extra: Partial<ArmTotals> = {},
): ArmTotals {
  const conversion = (converted: number) => ({
    n: exposed,
    sum: converted,
    sumSquares: converted,
    nonZero: converted,
  });
  return {
    variant,
    exposed,
    steps: { lookup: buyers * 4, signup: buyers * 2, checkout: buyers * 2, purchase: buyers },
    purchases: buyers,
    unpricedPurchases: 0,
    revenue:
      buyers === 0
        ? {}
        : {
            USD: {
              purchasers: buyers,
              sum: buyers * price,
              sumSquares: buyers * price * price,
              histogram: [{ revenueMinor: price, visitors: buyers }],
            },
          },
    bots: 0,
    overBudget: 0,
    unconfirmed: 0,
    metrics: {
      lookup: conversion(buyers * 4),
      signup: conversion(buyers * 2),
      checkout: conversion(buyers * 2),
      purchase: conversion(buyers),
      revenue: {
        n: exposed,
        sum: buyers * price,
        sumSquares: buyers * price * price,
        nonZero: buyers,
      },
    },
    ...extra,
  };
}

function totalsOf(...arms: ArmTotals[]): ExperimentTotals {
  const buyers = arms.some((a) => a.purchases > 0);
  return { phase: 2, arms, mainCurrency: buyers ? 'USD' : null, revenueCap: buyers ? 699 : null };
}

const NO_DAYS: ExperimentDays = { arms: [], revenue: [], startedAt: null };

function results(live: SplitDocument, totals: ExperimentTotals, days = NO_DAYS) {
  return buildResults({
    phase: 2,
    phases: [2, 1],
    configVersion: 'v3+v3',
    design: designOf(live),
    totals,
    days,
  });
}

describe('the shares a phase of the split is checked against', () => {
  it('are those the hash draws, thirds to 1/10 000 for weights 1:1:1, not whole percents', () => {
    const design = designOf(split({ a: 1, b: 1, c: 1 }));
    expect(design.shares).toEqual(
      pickedShares([
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ]),
    );
    for (const share of Object.values(design.shares)) expect(share).toBeCloseTo(1 / 3, 3);
    expect(design.shares.a).not.toBe(0.34);
  });

  it('give a paused variant 0', () => {
    expect(designOf(split({ a: 1, p: 0, b: 3 })).shares).toEqual({ a: 0.25, p: 0, b: 0.75 });
  });
});

describe('the results of a phase', () => {
  it('list the control first, with its means and no lift or verdict', () => {
    const answer = results(
      split({ control: 50, lp17: 50 }),
      totalsOf(arm('lp17', 200, 40), arm('control', 200, 30)),
    );
    expect(answer.variants.map((v) => v.variant)).toEqual(['control', 'lp17']);
    const [control] = answer.variants;
    expect(control).toMatchObject({ control: true, share: 0.5, exposed: 200, bots: 0 });
    expect(control?.metrics.find((m) => m.metric === 'purchase')).toEqual({
      metric: 'purchase',
      primary: true,
      count: 30,
      mean: 0.15,
      absoluteLift: null,
      absoluteInterval: null,
      relativeLift: null,
      relativeInterval: null,
      pValue: null,
      verdict: null,
    });
    expect(answer).toMatchObject({ control: 'control', phase: 2, phases: [2, 1] });
  });

  it('mark purchase as the primary metric unless the split names another', () => {
    const totals = totalsOf(arm('control', 200, 30), arm('lp17', 200, 40));
    const primaries = (live: SplitDocument) =>
      results(live, totals).variants.map((v) =>
        v.metrics.filter((m) => m.primary).map((m) => m.metric),
      );
    expect(primaries(split({ control: 1, lp17: 1 }))).toEqual([['purchase'], ['purchase']]);
    const byRevenue = split({ control: 1, lp17: 1 }, { primaryMetric: 'revenue' });
    expect(primaries(byRevenue)).toEqual([['revenue'], ['revenue']]);
    expect(results(byRevenue, totals).primaryMetric).toBe('revenue');
  });

  it('give every metric of a variant the lift, interval, p-value and verdict of the statistics', () => {
    const control = arm('control', 10_000, 1000);
    const lp17 = arm('lp17', 10_000, 1300);
    const answer = results(split({ control: 1, lp17: 1 }), totalsOf(control, lp17));
    const metrics = answer.variants[1]?.metrics ?? [];
    expect(metrics.map((m) => m.metric)).toEqual([
      'lookup',
      'signup',
      'checkout',
      'purchase',
      'revenue',
    ]);
    for (const result of metrics) {
      const { comparison, verdict } = judgeVariant({
        control: control.metrics[result.metric],
        variant: lp17.metrics[result.metric],
        plannedPerArm: DEFAULT_PLANNED_PER_ARM,
        srmAlarm: false,
      });
      expect(result).toEqual({
        metric: result.metric,
        primary: result.metric === 'purchase',
        count: lp17.metrics[result.metric].nonZero,
        mean: lp17.metrics[result.metric].sum / 10_000,
        absoluteLift: comparison?.absoluteLift,
        absoluteInterval: comparison?.absoluteInterval,
        relativeLift: comparison?.relativeLift,
        relativeInterval: comparison?.relativeInterval,
        pValue: comparison?.pValue,
        verdict,
      });
    }
    expect(metrics.find((m) => m.metric === 'purchase')).toMatchObject({
      verdict: 'better',
      absoluteLift: expect.closeTo(0.03, 12),
      relativeLift: expect.closeTo(0.3, 12),
    });
  });

  it('give the smallest p-value over the days’ looks, and the verdict that goes with it', () => {
    // The first day's visitors bought 70% more in lp17; the second day's, 20% less.
    const dayArm = (date: string, variant: string, buyers: number): DayArm => ({
      day: date,
      variant,
      exposed: 1000,
      steps: { lookup: buyers * 4, signup: buyers * 2, checkout: buyers * 2, purchase: buyers },
    });
    const days: ExperimentDays = {
      arms: [
        dayArm('2026-11-20', 'control', 100),
        dayArm('2026-11-20', 'lp17', 170),
        dayArm('2026-11-21', 'control', 100),
        dayArm('2026-11-21', 'lp17', 80),
      ],
      revenue: [],
      startedAt: Date.UTC(2026, 10, 20),
    };
    const live = split({ control: 1, lp17: 1 }, { plannedPerArm: 1000 });
    const totals = totalsOf(arm('control', 2000, 200), arm('lp17', 2000, 250));
    const firstDay = compareToControl(conversions(1000, 100), conversions(1000, 170), 1000)!;
    const today = compareToControl(conversions(2000, 200), conversions(2000, 250), 1000)!;
    expect(today.pValue).toBeGreaterThan(0.05);

    const purchase = results(live, totals, days).variants[1]?.metrics[3];
    expect(purchase).toMatchObject({ pValue: firstDay.pValue, verdict: 'better' });
    // With the one day alone, the one look's own value.
    const oneDay = { ...days, arms: days.arms.slice(0, 2) };
    const alone = results(
      live,
      totalsOf(arm('control', 1000, 100), arm('lp17', 1000, 170)),
      oneDay,
    );
    expect(alone.variants[1]?.metrics[3]?.pValue).toBe(firstDay.pValue);
  });

  it('tune the intervals to the split’s planned sample, else to 10 000 visitors per arm', () => {
    const totals = totalsOf(arm('control', 10_000, 1000), arm('lp17', 10_000, 1100));
    const planned = split({ control: 1, lp17: 1 }, { plannedPerArm: 500 });
    const width = (live: SplitDocument) => {
      const purchase = results(live, totals).variants[1]?.metrics[3];
      return (purchase?.absoluteInterval?.upper ?? 0) - (purchase?.absoluteInterval?.lower ?? 0);
    };
    expect(results(split({ control: 1, lp17: 1 }), totals).plannedPerArm).toBe(10_000);
    expect(results(planned, totals).plannedPerArm).toBe(500);
    expect(width(planned)).toBeGreaterThan(width(split({ control: 1, lp17: 1 })));
  });

  it('withhold every verdict of the phase when the sample ratio alarms, and keep the numbers', () => {
    // 1 200 against 1 000 on a 50/50 split: 1 100 expected in each, χ² = 18.2, p ≈ 2 · 10⁻⁵.
    const answer = results(
      split({ control: 1, lp17: 1, lp11: 0 }),
      totalsOf(arm('control', 1000, 100), arm('lp17', 1200, 300)),
    );
    expect(answer.sampleRatio.alarm).toBe(true);
    expect(answer.sampleRatio.pValue).toBeLessThan(0.001);
    expect(answer.sampleRatio.chiSquare).toBeCloseTo((2 * 100 ** 2) / 1100, 10);
    const lp17 = answer.variants[1]!;
    expect(lp17.metrics.map((m) => m.verdict)).toEqual(Array(5).fill('withheld_srm'));
    expect(lp17.metrics[3]?.absoluteLift).toBeCloseTo(0.15, 12);
    expect(lp17.metrics[3]?.relativeInterval).not.toBeNull();
  });

  it('check the sample ratio against the shares the hash draws: thirds for 1:1:1', () => {
    const thirds = { a: 33_340, b: 33_330, c: 33_330 };
    const answer = results(
      split({ a: 1, b: 1, c: 1 }),
      totalsOf(...Object.entries(thirds).map(([key, exposed]) => arm(key, exposed, 0))),
    );
    expect(answer.variants.map((v) => v.share)).toEqual([0.3334, 0.3333, 0.3333]);
    expect(answer.sampleRatio).toMatchObject({ alarm: false });
    expect(answer.sampleRatio.chiSquare).toBeCloseTo(0, 10);
    // What a whole-percent roll drew (34/33/33) is a broken split for the hash.
    const wholePercents = { a: 34_000, b: 33_000, c: 33_000 };
    const broken = results(
      split({ a: 1, b: 1, c: 1 }),
      totalsOf(...Object.entries(wholePercents).map(([key, exposed]) => arm(key, exposed, 0))),
    );
    expect(broken.sampleRatio.alarm).toBe(true);
  });

  it('alarm when a variant the split does not draw has visitors, and show it at share 0', () => {
    const answer = results(
      split({ control: 1, lp17: 1, paused: 0 }),
      totalsOf(arm('control', 500, 0), arm('lp17', 500, 0), arm('paused', 3, 0), arm('gone', 2, 0)),
    );
    expect(answer.variants.map((v) => [v.variant, v.share])).toEqual([
      ['control', 0.5],
      ['lp17', 0.5],
      ['paused', 0],
      ['gone', 0],
    ]);
    expect(answer.sampleRatio).toEqual({ chiSquare: null, pValue: 0, alarm: true });
  });

  it('show a phase without visitors as its variants at zero, not enough data, no alarm', () => {
    const answer = results(split({ control: 1, lp17: 1, paused: 0 }), totalsOf());
    expect(answer).toMatchObject({
      startedAt: null,
      mainCurrency: null,
      revenueCap: null,
      sampleRatio: { chiSquare: null, pValue: 1, alarm: false },
      liftOverDays: [],
    });
    expect(answer.variants.map((v) => [v.variant, v.exposed, v.share])).toEqual([
      ['control', 0, 0.5],
      ['lp17', 0, 0.5],
    ]);
    const lp17 = answer.variants[1]!;
    expect(lp17.metrics.every((m) => m.verdict === 'not_enough_data' && m.mean === 0)).toBe(true);
  });

  it('give each arm’s revenue in other currencies apart, uncompared', () => {
    const euros = {
      EUR: {
        purchasers: 2,
        sum: 7998,
        sumSquares: 2 * 3999 ** 2,
        histogram: [{ revenueMinor: 3999, visitors: 2 }],
      },
    };
    const control = arm('control', 100, 10);
    const answer = results(
      split({ control: 1, lp17: 1 }),
      totalsOf(
        { ...control, revenue: { ...control.revenue, ...euros } },
        arm('lp17', 100, 10, 699, { bots: 4 }),
      ),
    );
    expect(answer.mainCurrency).toBe('USD');
    expect(answer.variants.map((v) => v.otherRevenue)).toEqual([{ EUR: 7998 }, {}]);
    // Added up in USD at the fixed reporting rates: 10 × 6.99 + 79.98 EUR × 1.16.
    expect(answer.variants[0]?.reportedRevenue).toEqual({
      currency: 'USD',
      minor: 6990 + Math.round(79.98 * USD_PER_UNIT.EUR * 100),
      ratesDate: REPORTING_RATES_DATE,
      unconverted: [],
    });
    expect(answer.variants[1]?.bots).toBe(4);
    expect(answer.variants[0]?.metrics[4]).toMatchObject({ count: 10, mean: 69.9 });
  });

  it('give the first exposure’s time as startedAt', () => {
    const at = Date.UTC(2026, 10, 20, 9, 30);
    const answer = results(split({ control: 1, lp17: 1 }), totalsOf(), {
      ...NO_DAYS,
      startedAt: at,
    });
    expect(answer.startedAt).toBe('2026-11-20T09:30:00.000Z');
  });
});

describe('a phase the config history does not name', () => {
  it('is checked against equal shares of the variants seen, the live control if seen', () => {
    const live = split({ control: 1, lp17: 3 }, { primaryMetric: 'signup', plannedPerArm: 800 });
    expect(assumedDesign(live, ['lp9', 'control', 'lp17'])).toEqual({
      control: 'control',
      shares: { control: 1 / 3, lp17: 1 / 3, lp9: 1 / 3 },
      primaryMetric: 'signup',
      plannedPerArm: 800,
    });
    expect(assumedDesign(live, ['lp9', 'lp11']).control).toBe('lp11');
    expect(assumedDesign(live, []).shares).toEqual({});
  });
});
