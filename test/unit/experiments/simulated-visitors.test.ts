import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAN_FAMILIES, planOf } from '../../../shared/plans/catalogue';
import { seededRandom } from '../../../shared/seeded-random';
import {
  CHALLENGER_RATES,
  CONTROL_RATES,
  resolveRates,
  SCREEN_PLANS,
  type SimulationPlan,
  simulateBatch,
  tallyBatch,
} from '../../../worker/dev/simulated-visitors';
import {
  DEFAULT_VISITORS,
  defaultDays,
  defaultVisitors,
  exposureWindow,
  matureShare,
} from '../../../worker/dev/simulation-plan';
import { lastMatureDay } from '../../../worker/experiments/experiment-answer';
import type { ExperimentDesign } from '../../../worker/experiments/experiment-design';
import { checkSampleRatio } from '../../../worker/experiments/statistics';

/**
 * The visitors `npm run experiments -- simulate` draws (worker/dev/simulated-visitors.ts) and the
 * size of its default run (simulation-plan.ts): pure, so checked here over many draws; what the
 * results make of them is test/worker/experiments/simulate-route.test.ts.
 */

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 26, 15, 30);

const landing = { variants: ['a', 'b'], control: 'a', first: 'lookup' as const };

describe('the rates', () => {
  it('are the defaults for a test exposing on the first screen', () => {
    expect(resolveRates(landing, {})).toEqual({
      ok: true,
      value: { a: CONTROL_RATES, b: CHALLENGER_RATES },
    });
  });

  it('are shares of the visitors who reached a later trigger, the earlier steps all taken', () => {
    const rates = resolveRates({ ...landing, first: 'checkout' }, { b: { purchase: 0.3 } });
    if (!rates.ok) throw new Error(rates.error);
    expect(rates.value.a).toEqual({
      lookup: 1,
      signup: 1,
      checkout: CONTROL_RATES.checkout / CONTROL_RATES.signup,
      purchase: CONTROL_RATES.purchase / CONTROL_RATES.signup,
      upsell: CONTROL_RATES.upsell,
    });
    expect(rates.value.b!.purchase).toBe(0.3);
  });

  it('refuse an unknown variant, a step before the trigger, and unnested steps', () => {
    expect(resolveRates(landing, { c: { lookup: 0.1 } })).toMatchObject({ ok: false });
    expect(resolveRates({ ...landing, first: 'upsell' }, { a: { purchase: 0.1 } })).toEqual({
      ok: false,
      error:
        '--rates: variant "a" sets purchase, but this experiment counts from upsell on (its visitors took purchase before they were exposed)',
    });
    expect(resolveRates(landing, { a: { purchase: 0.5 } })).toEqual({
      ok: false,
      error:
        '--rates: variant "a" has purchase=0.5 above checkout=0.25; the steps are nested (whoever reached purchase reached checkout), so each share is at most the one before',
    });
  });
});

function aPlan(overrides: Partial<SimulationPlan> = {}): SimulationPlan {
  const rates = resolveRates(landing, {});
  if (!rates.ok) throw new Error(rates.error);
  return {
    experiment: 'exp',
    phase: 2,
    configVersion: 'v1+v1',
    startedAt: null,
    weights: [
      ['a', 1],
      ['b', 3],
    ],
    routes: ['default', 'tiktok'],
    plans: {
      a: { default: SCREEN_PLANS, tiktok: SCREEN_PLANS },
      b: { default: ['monthly_3d_intro'], tiktok: ['monthly_3d_intro'] },
    },
    rates: rates.value,
    first: 'lookup',
    exposedShare: 0.5,
    ...overrides,
  };
}

function draw(seed: number, count = 4000, plan = aPlan()) {
  let id = 0;
  return simulateBatch(plan, {
    count,
    window: exposureWindow(NOW, 20),
    random: seededRandom(seed),
    newId: () => `id-${++id}`,
  });
}

describe('a batch of simulated visitors', () => {
  const batch = draw(1);

  it('is the same from the same seed, and another from another', () => {
    expect(draw(5, 200)).toEqual(draw(5, 200));
    expect(draw(5, 200)).not.toEqual(draw(6, 200));
  });

  it('enters the variants at the weights, as the sample-ratio check expects', () => {
    const tallies = tallyBatch(['a', 'b'], batch);
    expect(
      checkSampleRatio([
        { exposed: tallies.a!.exposed, weight: 1 },
        { exposed: tallies.b!.exposed, weight: 3 },
      ]).pValue,
    ).toBeGreaterThan(0.001);
  });

  it('exposes them over the window and dates all that follows after, never after now', () => {
    const window = exposureWindow(NOW, 20);
    const exposedAt = new Map(batch.exposures.map((e) => [e.visitorId, e.at]));
    expect(Math.min(...exposedAt.values())).toBeGreaterThanOrEqual(window.from);
    expect(Math.min(...exposedAt.values())).toBeLessThan(window.from + DAY);
    for (const later of [...batch.outcomes, ...batch.purchases, ...batch.revenueEvents]) {
      expect(later.at).toBeGreaterThanOrEqual(exposedAt.get(later.visitorId)!);
      expect(later.at).toBeLessThanOrEqual(NOW);
    }
  });

  it('gives each visitor segments, as real exposures store them', () => {
    const levels = (
      dimension: 'country' | 'source' | 'platform' | 'in_app' | 'language' | 'route',
    ) => new Set(batch.exposures.map((e) => e.segments[dimension]));
    expect(levels('country')).toEqual(new Set(['US', 'DE', 'GB', 'BR', 'FR', 'CA', 'IN']));
    expect(levels('platform')).toEqual(new Set(['ios', 'android', 'desktop']));
    expect(levels('route')).toEqual(new Set(['default', 'tiktok']));
    // An in-app browser only on a phone, and only the network's own.
    for (const { segments } of batch.exposures) {
      if (segments.in_app === 'none') continue;
      expect(segments.platform).not.toBe('desktop');
      expect({ tiktok: 'tiktok', meta: 'instagram' }[segments.source]).toBe(segments.in_app);
    }
    expect(levels('language')).toEqual(new Set(['en', 'de', 'pt', 'fr']));
  });

  it("buys the variant's own plans at their catalogue prices, once each", () => {
    const variantOf = new Map(batch.exposures.map((e) => [e.visitorId, e.variant]));
    const mains = batch.purchases.filter((p) => !p.upsell);
    expect(new Set(mains.map((p) => p.subscriptionId)).size).toBe(mains.length);
    const prices = (families: readonly (keyof typeof PLAN_FAMILIES)[]) =>
      new Set(families.map((family) => planOf(family, 'USD').periodPrice));
    const paid = (variant: string) =>
      new Set(
        mains.filter((p) => variantOf.get(p.visitorId) === variant).map((p) => p.amountMinor),
      );
    expect(paid('a')).toEqual(prices(SCREEN_PLANS));
    expect(paid('b')).toEqual(prices(['monthly_3d_intro']));
  });

  it('renews intros at the full price after the intro, and refunds some first payments', () => {
    const bought = new Map(batch.purchases.map((p) => [p.subscriptionId, p]));
    const renewals = batch.revenueEvents.filter((e) => e.kind === 'renewal');
    expect(renewals.length).toBeGreaterThan(0);
    for (const renewal of renewals) {
      const purchase = bought.get(renewal.subscriptionId)!;
      if (purchase.amountMinor === planOf('monthly_3d_intro', 'USD').periodPrice) {
        expect(renewal.amountMinor).toBe(PLAN_FAMILIES.monthly_3d_intro.price);
        expect(renewal.at - purchase.at).toBeGreaterThanOrEqual(3 * DAY);
      }
    }
    const refunds = batch.revenueEvents.filter((e) => e.kind !== 'renewal');
    expect(refunds.length).toBeGreaterThan(0);
    for (const refund of refunds) {
      expect(refund.amountMinor).toBe(-bought.get(refund.subscriptionId)!.amountMinor!);
    }
  });

  it('brings the first visits of those its trigger never exposed', () => {
    expect(batch.firstVisits.length / batch.exposures.length).toBeCloseTo(2, 1);
  });

  it('draws no step before a later trigger, and the upsell test’s buyers bought before it', () => {
    const rates = resolveRates({ ...landing, first: 'upsell' }, {});
    if (!rates.ok) throw new Error(rates.error);
    const upsell = draw(2, 2000, aPlan({ first: 'upsell', rates: rates.value }));
    expect(upsell.outcomes).toEqual([]);
    expect(upsell.purchases.every((p) => p.upsell)).toBe(true);
    expect(upsell.purchases.length / 2000).toBeCloseTo(CONTROL_RATES.upsell, 1);
  });
});

describe('the default run', () => {
  const design = (planned: number, shares: Record<string, number>) =>
    ({
      priceTest: true,
      plannedPerArm: planned,
      matureAfterDays: 10,
      shares,
    }) as unknown as ExperimentDesign;

  it('spreads two weeks of exposures beyond the mature view’s wait', () => {
    expect(defaultDays({ matureAfterDays: 10 })).toBe(25);
  });

  it('counts as mature the visitors of the days the results count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 3, max: 10 }),
        (now, days, after) => {
          const window = exposureWindow(now, days);
          const last = lastMatureDay(now, after);
          const endOfLast = Date.parse(`${last}T00:00:00Z`) + DAY;
          const expected = Math.max(
            0,
            Math.min(1, (endOfLast - window.from) / (now - window.from)),
          );
          expect(matureShare(now, days, after)).toBeCloseTo(expected, 9);
        },
      ),
    );
  });

  it('of a price test matures its planned sample in every variant; otherwise 6,000', () => {
    for (const [planned, shares] of [
      [10_000, { a: 0.5, b: 0.5 }],
      [500, { a: 0.2, b: 0.3, c: 0.5 }],
    ] as const) {
      const days = defaultDays({ matureAfterDays: 10 });
      const visitors = defaultVisitors(design(planned, shares), NOW, days);
      const smallest = Math.min(...Object.values(shares));
      expect(visitors * matureShare(NOW, days, 10) * smallest).toBeGreaterThanOrEqual(planned);
    }
    expect(defaultVisitors({ ...design(10_000, { a: 1 }), priceTest: false }, NOW, 18)).toBe(
      DEFAULT_VISITORS,
    );
  });
});
