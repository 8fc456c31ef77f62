import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { SegmentDimension } from '../../../shared/console-api/experiment-results';
import { buildExperimentResults } from '../../../worker/experiments/answer/experiment-answer';
import { resultsCsv } from '../../../worker/experiments/answer/results-csv';
import {
  experimentDesign,
  isPriceTest,
  matureAfterDays,
  metricsAfter,
} from '../../../worker/experiments/design/experiment-design';
import { lastMatureDay } from '../../../worker/experiments/results/metric-inputs';
import {
  AFTER_EXPOSURE_CAUTION,
  SEGMENT_CAUTION,
} from '../../../worker/experiments/results/segment-results';
import { bucketOf } from '../../../worker/experiments/statistics/vitals-histogram';
import type {
  DayRevenueRow,
  ExperimentArmRow,
  ExperimentDayRow,
  ExperimentPhaseRows,
  SegmentRow,
} from '../../../worker/experiments/store/phase-rows';
import type { DayVitalsRow } from '../../../worker/experiments/store/vitals-statements';

/** One experiment's results answer from its rows (worker/experiments/answer/experiment-answer.ts). */

const NOW = Date.parse('2026-11-25T12:00:00Z');

function priceTest(overrides: Partial<ExperimentDocument> = {}): ExperimentDocument {
  return {
    name: 'Intro price',
    status: 'running',
    layer: 'paywall',
    audience: { routes: ['default'] },
    coverage: 0.5,
    range: [0, 0.4],
    seed: 'pw-intro',
    control: 'seven',
    variants: {
      seven: { name: '7 days at 6.99', weight: 1, change: { plans: ['monthly_7d_intro'] } },
      three: { name: '3 days at 2.99', weight: 1, change: { plans: ['monthly_3d_intro'] } },
    },
    metrics: { plannedPerArm: 1000 },
    ...overrides,
  };
}

const paywallTrigger = new Map([
  ['default', { index: 3, screen: 'checkout_v3_tr' as const, slot: 'paywall' as const }],
]);

function armRow(variant: string, values: Partial<ExperimentArmRow>): ExperimentArmRow {
  return {
    variant,
    exposed: 0,
    reached_lookup: 0,
    signed_up: 0,
    reached_checkout: 0,
    purchased: 0,
    purchases: 0,
    unpriced_purchases: 0,
    bots: 0,
    over_budget: 0,
    unconfirmed: 0,
    upsold: 0,
    declined: 0,
    refunded: 0,
    ...values,
  };
}

function dayRow(day: string, variant: string, values: Partial<ExperimentDayRow>): ExperimentDayRow {
  return {
    day,
    variant,
    exposed: 0,
    reached_lookup: 0,
    signed_up: 0,
    reached_checkout: 0,
    purchased: 0,
    upsold: 0,
    first_exposed_at: Date.parse(`${day}T08:00:00Z`),
    ...values,
  };
}

const bucket = (
  day: string,
  variant: string,
  revenue: number,
  visitors: number,
): DayRevenueRow => ({
  day,
  variant,
  currency: 'USD',
  revenue_minor: revenue,
  visitors,
});

/**
 * Two days of a price test: an old day (mature) and yesterday (not). The cheap intro sells more,
 * but on the old day its buyers renewed less: net revenue turns the result.
 */
function priceRows(): ExperimentPhaseRows {
  const oldDay = '2026-11-01';
  const newDay = '2026-11-24';
  const days = [
    dayRow(oldDay, 'seven', { exposed: 1000, reached_checkout: 1000, purchased: 100 }),
    dayRow(oldDay, 'three', { exposed: 1000, reached_checkout: 1000, purchased: 200 }),
    dayRow(newDay, 'seven', { exposed: 500, reached_checkout: 500, purchased: 50 }),
    dayRow(newDay, 'three', { exposed: 500, reached_checkout: 500, purchased: 100 }),
  ];
  const firstPayments = [
    bucket(oldDay, 'seven', 699, 100),
    bucket(oldDay, 'three', 299, 200),
    bucket(newDay, 'seven', 699, 50),
    bucket(newDay, 'three', 299, 100),
  ];
  // Old day: 80 of seven's buyers renewed at 39.99, 40 of three's; three refunded 20.
  const net = [
    bucket(oldDay, 'seven', 699 + 3999, 80),
    bucket(oldDay, 'seven', 699, 20),
    bucket(oldDay, 'three', 299 + 3999, 40),
    bucket(oldDay, 'three', 299, 140),
    bucket(newDay, 'seven', 699, 50),
    bucket(newDay, 'three', 299, 100),
  ];
  const addDays = (rows: DayRevenueRow[]) =>
    Object.values(
      rows.reduce<Record<string, DayRevenueRow>>((sums, row) => {
        const key = `${row.variant}/${row.revenue_minor}`;
        const known = sums[key];
        sums[key] = known ? { ...known, visitors: known.visitors + row.visitors } : { ...row };
        return sums;
      }, {}),
    ).map(({ day: _day, ...row }) => row);
  return {
    arms: [
      armRow('seven', {
        exposed: 1500,
        reached_checkout: 1500,
        purchased: 150,
        purchases: 150,
        declined: 30,
        refunded: 0,
      }),
      armRow('three', {
        exposed: 1500,
        reached_checkout: 1500,
        purchased: 300,
        purchases: 300,
        declined: 30,
        refunded: 20,
      }),
    ],
    revenue: addDays(firstPayments),
    days,
    dayRevenue: firstPayments,
    netRevenue: addDays(net),
    dayNetRevenue: net,
    segments: [],
    vitals: [],
    dayVitals: [],
    declines: [],
    errors: [],
    lifecycle: [],
    recovered: [],
    saveOffers: [],
    saveOfferReasons: [],
    saveOfferMoney: [],
    strata: [],
    strataRevenue: [],
  };
}

/** The price test's results in phase 1 from `rows`, read at NOW. */
function priceAnswer(rows: ExperimentPhaseRows) {
  return buildExperimentResults({
    design: experimentDesign('pw', priceTest(), paywallTrigger),
    rows,
    phase: 1,
    phases: [1],
    configVersion: 'v9+v9',
    now: NOW,
    routeVisits: null,
  });
}

describe('what an experiment is read as', () => {
  it('a plan-set test whose plans differ in price is a price test, one of equal prices is not', () => {
    expect(isPriceTest(priceTest())).toBe(true);
    const samePrice = priceTest({
      variants: {
        seven: { weight: 1, change: { plans: ['monthly_7d_intro', 'quarterly'] } },
        reordered: { weight: 1, change: { plans: ['quarterly', 'monthly_7d_intro'] } },
      },
    });
    expect(isPriceTest(samePrice)).toBe(false);
    const landing = priceTest({
      variants: {
        a: { weight: 1, change: { screens: { landing: 'one_pager' } } },
        b: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
      },
    });
    expect(isPriceTest(landing)).toBe(false);
  });

  it('revenue matures after the longest intro the variants offer, plus 3 days', () => {
    expect(matureAfterDays(priceTest())).toBe(10);
    const short = priceTest({
      variants: {
        five: { weight: 1, change: { plans: ['monthly_5d_intro'] } },
        three: { weight: 1, change: { plans: ['monthly_3d_intro'] } },
      },
    });
    expect(matureAfterDays(short)).toBe(8);
  });

  it('shows the steps from the latest trigger on', () => {
    expect(metricsAfter([{ screen: 'one_pager' }])).toEqual([
      'lookup',
      'signup',
      'checkout',
      'purchase',
      'revenue',
      'upsell',
      'net_revenue',
      'mature_revenue',
    ]);
    expect(metricsAfter([{ screen: 'one_pager' }, { screen: 'checkout_v3_tr' }])).toEqual([
      'checkout',
      'purchase',
      'revenue',
      'upsell',
      'net_revenue',
      'mature_revenue',
    ]);
    expect(metricsAfter([{ screen: 'upsell_an_private' }])).toEqual([
      'revenue',
      'upsell',
      'net_revenue',
      'mature_revenue',
    ]);
  });

  it('a price test is judged on mature revenue unless it names another metric', () => {
    const design = experimentDesign('pw', priceTest(), paywallTrigger);
    expect(design.primaryMetric).toBe('mature_revenue');
    expect(design.reachShare).toBeCloseTo(0.2);
    expect(design.shares).toEqual({ seven: 0.5, three: 0.5 });
    expect(design.triggers).toEqual([{ route: 'default', screen: 'checkout_v3_tr' }]);
  });
});

describe('an experiment’s results', () => {
  it('counts mature revenue only over the visitors exposed long enough ago', () => {
    expect(lastMatureDay(NOW, 10)).toBe('2026-11-14');
    const answer = buildExperimentResults({
      design: experimentDesign('pw', priceTest(), paywallTrigger),
      rows: priceRows(),
      phase: 1,
      phases: [1],
      configVersion: 'v9+v9',
      now: NOW,
      routeVisits: 20_000,
    });
    expect(answer.metricsShown[0]).toBe('checkout');
    expect(answer.metricsShown).not.toContain('lookup');
    const seven = answer.variants.find((variant) => variant.variant === 'seven')!;
    const three = answer.variants.find((variant) => variant.variant === 'three')!;
    expect(seven.matureExposed).toBe(1000);
    expect(three.matureExposed).toBe(1000);
    const mean = (variant: typeof seven, metric: string) =>
      variant.metrics.find((m) => m.metric === metric)!.mean;
    // The cheap intro sells twice as often; mature net revenue favours the dear one.
    expect(mean(three, 'purchase')).toBeCloseTo(2 * mean(seven, 'purchase'));
    expect(mean(seven, 'mature_revenue')).toBeCloseTo((80 * 4698 + 20 * 699) / 1000, 6);
    expect(mean(three, 'mature_revenue')).toBeCloseTo((40 * 4298 + 140 * 299) / 1000, 6);
    expect(answer.reach).toEqual({ exposed: 3000, expectedAtMost: 4000 });
    expect(answer.priceTest).toBe(true);
    expect(answer.awaitingMatureSample).toBe(false);
    expect(three.metrics.find((m) => m.metric === 'mature_revenue')!.verdict).toBe('worse');
  });

  it('withholds every verdict of a price test until the mature sample reaches the plan', () => {
    const answer = buildExperimentResults({
      design: experimentDesign(
        'pw',
        priceTest({ metrics: { plannedPerArm: 1200 } }),
        paywallTrigger,
      ),
      rows: priceRows(),
      phase: 1,
      phases: [1],
      configVersion: 'v9+v9',
      now: NOW,
      routeVisits: null,
    });
    expect(answer.awaitingMatureSample).toBe(true);
    const three = answer.variants.find((variant) => variant.variant === 'three')!;
    // Purchases differ hugely (20% against 10%), and still no verdict is given.
    expect(three.metrics.map((m) => m.verdict)).toEqual(three.metrics.map(() => 'not_enough_data'));
    expect(answer.reach.expectedAtMost).toBeNull();
  });

  it('judges a price test in each currency, so a price can win in one country and lose in another', () => {
    const rows = priceRows();
    // In Britain the cheap intro's buyers renewed as often as the dear one's, and four times as
    // many bought: the verdict in GBP is the opposite of the one in USD.
    const pounds = (variant: string, revenue: number, visitors: number): DayRevenueRow => ({
      ...bucket('2026-11-01', variant, revenue, visitors),
      currency: 'GBP',
    });
    const gbp = [pounds('seven', 599, 30), pounds('three', 599, 120)];
    rows.dayNetRevenue = [...rows.dayNetRevenue, ...gbp];
    rows.netRevenue = [...rows.netRevenue, ...gbp.map(({ day: _day, ...row }) => row)];
    const answerOf = (test: ExperimentDocument, phaseRows: ExperimentPhaseRows) =>
      buildExperimentResults({
        design: experimentDesign('pw', test, paywallTrigger),
        rows: phaseRows,
        phase: 1,
        phases: [1],
        configVersion: 'v9+v9',
        now: NOW,
        routeVisits: null,
      });
    const answer = answerOf(priceTest(), rows);
    const three = answer.variants.find((variant) => variant.variant === 'three')!;
    const seven = answer.variants.find((variant) => variant.variant === 'seven')!;
    // Most buyers first; the control's rows are its own figures, judged against nothing.
    expect(three.byCurrency.map((row) => row.currency)).toEqual(['USD', 'GBP']);
    expect(seven.byCurrency.map((row) => [row.currency, row.verdict])).toEqual([
      ['USD', null],
      ['GBP', null],
    ]);
    const [usd, pound] = three.byCurrency;
    expect(usd!.verdict).toBe('worse');
    expect(pound!.verdict).toBe('better');
    // Per mature visitor of every country: a visitor who paid in dollars counts 0 in pounds.
    expect(pound!.mean).toBeCloseTo((120 * 599) / 1000, 6);
    expect(pound!.count).toBe(120);
    expect(pound!.relativeLift).toBeCloseTo(3, 6);
    // The main currency's own row is the mature revenue metric, its interval wider for sharing
    // the false-alarm rate with the pound's.
    const mature = three.metrics.find((metric) => metric.metric === 'mature_revenue')!;
    expect(usd!.mean).toBeCloseTo(mature.mean, 6);
    const width = (interval: { lower: number; upper: number } | null) =>
      interval!.upper - interval!.lower;
    expect(width(usd!.relativeInterval)).toBeGreaterThan(width(mature.relativeInterval));

    // Short of the planned mature sample, no currency has a verdict either.
    const early = answerOf(priceTest({ metrics: { plannedPerArm: 1200 } }), rows);
    const earlyThree = early.variants.find((variant) => variant.variant === 'three')!;
    expect(earlyThree.byCurrency.map((row) => row.verdict)).toEqual([
      'not_enough_data',
      'not_enough_data',
    ]);
    // A test that changes no price has no table by currency.
    const landing = priceTest({
      layer: 'landing',
      variants: {
        seven: { weight: 1, change: { screens: { landing: 'one_pager' } } },
        three: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
      },
    });
    for (const variant of answerOf(landing, rows).variants) expect(variant.byCurrency).toEqual([]);
  });

  it('calls a rise in refunds worse, and an equal decline rate no difference', () => {
    const rows = priceRows();
    rows.arms = [
      armRow('seven', { exposed: 20_000, declined: 400, refunded: 100 }),
      armRow('three', { exposed: 20_000, declined: 400, refunded: 600 }),
    ];
    const answer = priceAnswer(rows);
    const three = answer.variants.find((variant) => variant.variant === 'three')!;
    expect(three.guardrails.refunds.verdict).toBe('worse');
    expect(three.guardrails.refunds.rate).toBeCloseTo(0.03);
    expect(three.guardrails.declines.verdict).toBe('no_difference_yet');
    const seven = answer.variants.find((variant) => variant.variant === 'seven')!;
    expect(seven.guardrails.refunds.verdict).toBeNull();
  });

  it('calls a fall in retention (renewed) worse, and a rise in cancellations worse', () => {
    const rows = priceRows();
    rows.arms = [armRow('seven', { exposed: 20_000 }), armRow('three', { exposed: 20_000 })];
    rows.lifecycle = [
      { variant: 'seven', outcome: 'renewed', visitors: 800 },
      { variant: 'seven', outcome: 'cancelled', visitors: 100 },
      { variant: 'three', outcome: 'renewed', visitors: 400 },
      { variant: 'three', outcome: 'cancelled', visitors: 600 },
    ];
    const answer = priceAnswer(rows);
    const [seven, three] = ['seven', 'three'].map(
      (key) => answer.variants.find((variant) => variant.variant === key)!,
    );
    expect(three!.guardrails.renewed).toMatchObject({ count: 400, rate: 0.02, verdict: 'worse' });
    expect(three!.guardrails.cancellations.verdict).toBe('worse');
    expect(seven!.guardrails.renewed).toMatchObject({ count: 800, verdict: null });
    // The other way round, more renewals are better.
    rows.lifecycle = rows.lifecycle.map((row) =>
      row.outcome === 'renewed'
        ? { ...row, variant: row.variant === 'seven' ? 'three' : 'seven' }
        : row,
    );
    const again = priceAnswer(rows);
    const better = again.variants.find((variant) => variant.variant === 'three')!;
    expect(better.guardrails.renewed.verdict).toBe('better');
  });

  it('splits the declines by class: a rise in 3-D Secure failures is worse beside an equal total', () => {
    const rows = priceRows();
    rows.arms = [
      armRow('seven', { exposed: 20_000, declined: 400 }),
      armRow('three', { exposed: 20_000, declined: 400 }),
    ];
    rows.declines = [
      { variant: 'seven', decline_class: 'insufficient_funds', visitors: 300 },
      { variant: 'seven', decline_class: 'authentication_failed', visitors: 100 },
      { variant: 'three', decline_class: 'insufficient_funds', visitors: 100 },
      { variant: 'three', decline_class: 'authentication_failed', visitors: 300 },
      { variant: 'three', decline_class: 'fraud_suspected', visitors: 0 },
    ];
    const answer = priceAnswer(rows);
    const three = answer.variants.find((variant) => variant.variant === 'three')!;
    expect(three.guardrails.declines.verdict).toBe('no_difference_yet');
    // Only the classes someone had, in the classifier's order; a class of no visitor is left out.
    expect(three.guardrails.declineClasses.map((row) => row.declineClass)).toEqual([
      'insufficient_funds',
      'authentication_failed',
    ]);
    const [funds, authentication] = three.guardrails.declineClasses;
    expect(authentication).toMatchObject({ count: 300, verdict: 'worse' });
    expect(authentication!.rate).toBeCloseTo(0.015);
    expect(authentication!.relativeLift).toBeCloseTo(2);
    expect(funds).toMatchObject({ count: 100, verdict: 'better' });
    const seven = answer.variants.find((variant) => variant.variant === 'seven')!;
    expect(seven.guardrails.declineClasses[1]).toMatchObject({
      declineClass: 'authentication_failed',
      count: 100,
      verdict: null,
      relativeLift: null,
    });
  });

  it('raises the sample-ratio alarm against the shares the hash draws', () => {
    const rows = priceRows();
    rows.arms = [armRow('seven', { exposed: 10_000 }), armRow('three', { exposed: 11_000 })];
    const answer = priceAnswer(rows);
    expect(answer.sampleRatio.alarm).toBe(true);
    const three = answer.variants.find((variant) => variant.variant === 'three')!;
    expect(new Set(three.metrics.map((m) => m.verdict))).toEqual(new Set(['withheld_srm']));
  });
});

describe('the comparison adjusted for what is known at exposure', () => {
  const stratum = (country: string) => JSON.stringify([country, 'meta', 'ios', 'en']);
  /**
   * The price test's visitors in two countries that buy at very different rates, and the cheap
   * intro's arm drew more of the country that buys more: the plain lift credits it with that.
   */
  const stratified = (): ExperimentPhaseRows => {
    const cell = (country: string, variant: string, exposed: number, purchased: number) => ({
      stratum: stratum(country),
      variant,
      exposed,
      reached_lookup: 0,
      signed_up: 0,
      reached_checkout: exposed,
      purchased,
      upsold: 0,
    });
    const paid = (country: string, variant: string, amount: number, visitors: number) => ({
      stratum: stratum(country),
      variant,
      currency: 'USD',
      revenue_minor: amount,
      visitors,
    });
    return {
      ...priceRows(),
      strata: [
        cell('US', 'seven', 700, 120),
        cell('IN', 'seven', 800, 30),
        cell('US', 'three', 800, 250),
        cell('IN', 'three', 700, 50),
      ],
      strataRevenue: [
        paid('US', 'seven', 699, 120),
        paid('IN', 'seven', 699, 30),
        paid('US', 'three', 299, 250),
        paid('IN', 'three', 299, 50),
      ],
    };
  };
  const answerOf = (rows: ExperimentPhaseRows) => priceAnswer(rows);
  const metricOf = (answer: ReturnType<typeof answerOf>, variant: string, metric: string) =>
    answer.variants.find((v) => v.variant === variant)!.metrics.find((m) => m.metric === metric)!;

  it('gives a variant’s purchase rate and revenue per visitor post-stratified, beside the plain lift', () => {
    const answer = answerOf(stratified());
    const purchase = metricOf(answer, 'three', 'purchase');
    // Plain: 20% against 10%. Each country weighted by its half of the visitors: 19.2% against 10.4%.
    expect(purchase.relativeLift).toBeCloseTo(1, 10);
    const control = 0.5 * (120 / 700) + 0.5 * (30 / 800);
    const variant = 0.5 * (250 / 800) + 0.5 * (50 / 700);
    expect(purchase.adjusted!.relativeLift).toBeCloseTo(variant / control - 1, 10);
    expect(purchase.adjusted!.absoluteLift).toBeCloseTo(variant - control, 10);
    expect(purchase.adjusted!.strata).toBe(2);
    // The countries explain much of who buys: the adjusted interval is narrower.
    expect(purchase.adjusted!.widthRatio).toBeLessThan(1);
    const revenue = metricOf(answer, 'three', 'revenue');
    expect(revenue.adjusted!.relativeLift).toBeCloseTo((299 * variant) / (699 * control) - 1, 10);
    // The plain comparison and its verdict are what they were.
    expect(purchase).toMatchObject({
      ...metricOf(
        answerOf({ ...stratified(), strata: [], strataRevenue: [] }),
        'three',
        'purchase',
      ),
      adjusted: purchase.adjusted,
    });
  });

  it('writes the adjusted lift and its interval into its metric’s row of the CSV', () => {
    const answer = answerOf(stratified());
    const purchase = metricOf(answer, 'three', 'purchase').adjusted!;
    const [header, ...rows] = resultsCsv(answer)
      .split('\r\n')
      .filter(Boolean)
      .map((row) => row.split(','));
    const at = (row: string[] | undefined, column: string) => row?.[header!.indexOf(column)];
    const row = rows.find(
      (cells) => at(cells, 'variant') === 'three' && at(cells, 'metric') === 'purchase',
    );
    expect(
      ['adjusted_relative_lift', 'adjusted_relative_lower', 'adjusted_relative_upper'].map((c) =>
        at(row, c),
      ),
    ).toEqual([
      String(purchase.relativeLift),
      String(purchase.relativeInterval!.lower),
      String(purchase.relativeInterval!.upper),
    ]);
    expect(Number(at(row, 'adjusted_width_ratio'))).toBeLessThan(1);
  });

  it('adjusts neither the control, nor net and mature revenue, nor a step without variance', () => {
    const answer = answerOf(stratified());
    expect(metricOf(answer, 'seven', 'purchase')).not.toHaveProperty('adjusted');
    expect(metricOf(answer, 'three', 'net_revenue')).not.toHaveProperty('adjusted');
    expect(metricOf(answer, 'three', 'mature_revenue')).not.toHaveProperty('adjusted');
    // Every visitor reached the checkout: nothing to compare.
    expect(metricOf(answer, 'three', 'checkout').adjusted).toBeNull();
  });

  it('adjusts nothing while the strata do not hold every exposed visitor', () => {
    const rows = stratified();
    const answer = answerOf({ ...rows, strata: rows.strata.slice(1) });
    expect(metricOf(answer, 'three', 'purchase').adjusted).toBeNull();
    expect(metricOf(answer, 'three', 'revenue').adjusted).toBeNull();
  });
});

describe('the field vitals’ verdict over the days', () => {
  /** LCP samples spread evenly over 1.5–3.5 s, `later` ms later, as one day's rows. */
  const lcpDay = (day: string, variant: string, samples: number, later: number): DayVitalsRow[] => {
    const counts = new Map<number, number>();
    for (let i = 0; i < samples; i++) {
      const bucket = bucketOf('lcp', 1500 + (i % 100) * 20 + later);
      counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
    }
    return [...counts].map(([bucket, visitors]) => ({
      day,
      variant,
      metric: 'lcp',
      bucket,
      visitors,
    }));
  };
  const totalsOf = (rows: readonly DayVitalsRow[]) =>
    Object.values(
      rows.reduce<Record<string, DayVitalsRow>>((sums, row) => {
        const key = `${row.variant}/${row.bucket}`;
        const known = sums[key];
        sums[key] = known ? { ...known, visitors: known.visitors + row.visitors } : { ...row };
        return sums;
      }, {}),
    ).map(({ day: _day, ...row }) => row);
  // The variant's pages paint later throughout: 400 ms on the first day's 300 samples per arm,
  // 60 ms on the next day's 10,000. The first day's interval leaves out 0; the totals' own,
  // diluted, no longer does, but it still meets the first day's: the difference did not change
  // sign, the evidence for it only thinned.
  const days = [
    ...lcpDay('2026-11-20', 'seven', 300, 0),
    ...lcpDay('2026-11-20', 'three', 300, 400),
    ...lcpDay('2026-11-21', 'seven', 10_000, 0),
    ...lcpDay('2026-11-21', 'three', 10_000, 60),
  ];
  const lcpOf = (dayVitals: DayVitalsRow[], vitals = totalsOf(days)) =>
    buildExperimentResults({
      design: experimentDesign('pw', priceTest(), paywallTrigger),
      rows: { ...priceRows(), vitals, dayVitals },
      phase: 1,
      phases: [1],
      configVersion: 'v9+v9',
      now: NOW,
      routeVisits: null,
    })
      .variants.find((v) => v.variant === 'three')!
      .vitals.find((v) => v.metric === 'lcp')!;

  it('keeps a worse LCP earned on an earlier day that the totals alone no longer show', () => {
    const firstDay = days.filter((row) => row.day === '2026-11-20');
    expect(lcpOf(firstDay, totalsOf(firstDay)).verdict).toBe('worse');
    expect(lcpOf([]).verdict).toBe('no_difference_yet');
    const kept = lcpOf(days);
    expect(kept.verdict).toBe('worse');
    expect(kept.interval!.lower).toBeGreaterThan(0);
    // A day whose interval no longer meets the earlier ones' is read afresh (the difference
    // itself changed): 1.5 s slower, then as fast.
    const changed = [
      ...lcpDay('2026-11-20', 'seven', 300, 0),
      ...lcpDay('2026-11-20', 'three', 300, 1500),
      ...lcpDay('2026-11-21', 'seven', 20_000, 0),
      ...lcpDay('2026-11-21', 'three', 20_000, 0),
    ];
    expect(lcpOf(changed, totalsOf(changed)).verdict).toBe('no_difference_yet');
  });

  it('reads the totals alone while the days do not hold every sample (counted before the days were)', () => {
    expect(lcpOf(days.slice(1)).verdict).toBe('no_difference_yet');
  });
});

/** One level of a segment in an arm, every visitor at the checkout, some of them buying. */
const segmentRowOf = (
  dimension: SegmentDimension,
  level: string,
  variant: string,
  exposed: number,
  purchased: number,
): SegmentRow => ({
  variant,
  dimension,
  level,
  exposed,
  reached_lookup: 0,
  signed_up: 0,
  reached_checkout: exposed,
  purchased,
  upsold: 0,
  declined: 0,
  refunded: 0,
});

/** The price test's results in phase 1 with `segments` as its segment rows, split by `dimension`. */
function priceResultsBy(dimension: SegmentDimension, segments: SegmentRow[]) {
  return buildExperimentResults({
    design: experimentDesign('pw', priceTest(), paywallTrigger),
    rows: { ...priceRows(), segments },
    phase: 1,
    phases: [1],
    configVersion: 'v9+v9',
    now: NOW,
    routeVisits: null,
    segment: dimension,
  });
}

describe('a segment view', () => {
  const segmentRow = (level: string, variant: string, exposed: number, purchased: number) =>
    segmentRowOf('country', level, variant, exposed, purchased);

  const withSegments = (segments: SegmentRow[]) => priceResultsBy('country', segments);

  it('shows only levels with 100 exposed in every arm, and says what segments are for', () => {
    const answer = withSegments([
      segmentRow('US', 'seven', 800, 80),
      segmentRow('US', 'three', 800, 160),
      segmentRow('DE', 'seven', 150, 15),
      segmentRow('DE', 'three', 99, 20),
    ]);
    expect(answer.segment?.caution).toBe(SEGMENT_CAUTION);
    expect(answer.segment?.levels.map((level) => level.level)).toEqual(['US']);
    expect(answer.segment?.hiddenLevels).toBe(1);
  });

  it('widens each level’s interval with the number of levels shown', () => {
    const us = [segmentRow('US', 'seven', 800, 80), segmentRow('US', 'three', 800, 160)];
    const others = ['DE', 'FR', 'GB', 'IT'].flatMap((level) => [
      segmentRow(level, 'seven', 200, 20),
      segmentRow(level, 'three', 200, 20),
    ]);
    const alone = withSegments(us).segment!.levels[0]!;
    const amongFive = withSegments([...us, ...others]).segment!.levels.find(
      (l) => l.level === 'US',
    )!;
    const width = (level: typeof alone) => {
      const interval = level.variants[1]!.metrics.find((m) => m.metric === 'purchase')!
        .relativeInterval!;
      return interval.upper - interval.lower;
    };
    expect(width(amongFive)).toBeGreaterThan(width(alone));
    expect(
      amongFive.variants[1]!.metrics.find((m) => m.metric === 'purchase')!.relativeLift,
    ).toBeCloseTo(1);
  });

  it('gives each variant’s level a verdict on its corrected interval, none to the control', () => {
    const purchase = (
      level: NonNullable<ReturnType<typeof withSegments>['segment']>['levels'][0],
      at: number,
    ) => level.variants[at]!.metrics.find((m) => m.metric === 'purchase')!;
    const rows = [
      segmentRow('US', 'seven', 800, 80),
      segmentRow('US', 'three', 800, 160),
      segmentRow('DE', 'seven', 300, 30),
      segmentRow('DE', 'three', 300, 31),
    ];
    const [de, us] = withSegments(rows).segment!.levels;
    expect(purchase(us!, 0).verdict).toBeNull();
    // Twice the purchases on 800 a side: the corrected interval is wholly above 0.
    expect(purchase(us!, 1).relativeInterval!.lower).toBeGreaterThan(0);
    expect(purchase(us!, 1).verdict).toBe('better');
    expect(purchase(de!, 1).verdict).toBe('no_difference_yet');
  });
});

describe('a segment by a quiz answer', () => {
  const answerRow = (
    level: string,
    variant: string,
    exposed: number,
    purchased: number,
    answeredAfter: boolean,
  ): SegmentRow => ({
    ...segmentRowOf('answer:who', level, variant, exposed, purchased),
    answered_after: answeredAfter ? exposed : 0,
  });

  const byAnswer = (segments: SegmentRow[]) => priceResultsBy('answer:who', segments).segment!;

  const purchase = (segment: ReturnType<typeof byAnswer>, level: string, variant: string) =>
    segment.levels
      .find((shown) => shown.level === level)!
      .variants.find((arm) => arm.variant === variant)!
      .metrics.find((metric) => metric.metric === 'purchase')!;

  it('compares the arms in answers known at exposure, the unanswered as a level of its own', () => {
    const segment = byAnswer([
      answerRow('child', 'seven', 800, 80, false),
      answerRow('child', 'three', 800, 160, false),
      answerRow('partner', 'seven', 400, 40, false),
      answerRow('partner', 'three', 400, 40, false),
    ]);
    expect(segment.caution).toBe(SEGMENT_CAUTION);
    expect(segment.afterExposure).toBeUndefined();
    expect(segment.levels.map((level) => level.level)).toEqual(['child', 'partner', 'unanswered']);
    // The arms' totals (1,500 exposed; 150 and 300 purchased) less the answered.
    expect(segment.levels[2]!.variants.map((arm) => [arm.variant, arm.exposed])).toEqual([
      ['seven', 300],
      ['three', 300],
    ]);
    expect(purchase(segment, 'unanswered', 'three').mean).toBeCloseTo(100 / 300);
    expect(purchase(segment, 'child', 'three').verdict).toBe('better');
    expect(purchase(segment, 'partner', 'three').verdict).toBe('no_difference_yet');
  });

  it('describes each arm by answers given after exposure, and judges none of them', () => {
    const segment = byAnswer([
      answerRow('child', 'three', 900, 200, true),
      answerRow('partner', 'three', 400, 60, true),
    ]);
    expect(segment).toMatchObject({ afterExposure: true, caution: AFTER_EXPOSURE_CAUTION });
    // Shown where one arm has 100: the control never asked.
    expect(segment.levels.map((level) => level.level)).toEqual(['child', 'partner', 'unanswered']);
    expect(purchase(segment, 'child', 'three')).toMatchObject({
      mean: 200 / 900,
      relativeLift: null,
      verdict: null,
    });
    expect(purchase(segment, 'unanswered', 'seven')).toMatchObject({ mean: 150 / 1500 });
    expect(purchase(segment, 'unanswered', 'three')).toMatchObject({ mean: 40 / 200 });
  });
});
