import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { screensInCode } from '../../../shared/composed-screens';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { HarmOverrides } from '../../../shared/console-api/simulation';
import { type PLAN_FAMILIES, planOf } from '../../../shared/plans/catalogue';
import { NO_PLAN_CHOICES } from '../../../shared/plans/screen-offers';
import { seededRandom } from '../../../shared/seeded-random';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import type { FunnelConfig } from '../../../worker/config/load';
import type { ExperimentDesign } from '../../../worker/experiments/design/experiment-design';
import { lastMatureDay } from '../../../worker/experiments/results/metric-inputs';
import { checkSampleRatio } from '../../../worker/experiments/statistics/statistics';
import { offersOf } from '../../../worker/simulation/simulated-offers';
import {
  CHALLENGER_RATES,
  CONTROL_RATES,
  resolveHarm,
  resolveRates,
  type SimulationPlan,
  simulateBatch,
  tallyBatch,
} from '../../../worker/simulation/simulated-visitors';
import {
  DEFAULT_VISITORS,
  defaultDays,
  defaultVisitors,
  exposureWindow,
  matureShare,
  planSimulation,
} from '../../../worker/simulation/simulation-plan';

/**
 * The visitors `npm run experiments -- simulate` draws (worker/simulation/simulated-visitors.ts) and the
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

const DEFAULT_FLOW = screensInCode(EMPTY_CONTENT, DEFAULT_FLOWS.flows.default!);
const CHECKOUT_PLANS = ['monthly_7d_intro', 'monthly', 'quarterly'] as const;
/** What the default flow offers, the trigger at `from`, with `choices` for the plans. */
const offers = (choices: Partial<typeof NO_PLAN_CHOICES> = {}, from = 0) =>
  offersOf({ ...NO_PLAN_CHOICES, ...choices, screens: DEFAULT_FLOW }, 'USD', from);

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
    offers: {
      a: { default: offers(), tiktok: offers() },
      b: {
        default: offers({ plans: ['monthly_3d_intro'] }),
        tiktok: offers({ plans: ['monthly_3d_intro'] }),
      },
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
    expect(paid('a')).toEqual(prices(CHECKOUT_PLANS));
    expect(paid('b')).toEqual(prices(['monthly_3d_intro']));
  });

  it('renews intros at the full price after the intro, and refunds some first payments', () => {
    const bought = new Map(batch.purchases.map((p) => [p.subscriptionId, p]));
    const renewals = batch.revenueEvents.filter((e) => e.kind === 'renewal');
    expect(renewals.length).toBeGreaterThan(0);
    for (const renewal of renewals) {
      const purchase = bought.get(renewal.subscriptionId)!;
      if (purchase.amountMinor === planOf('monthly_3d_intro', 'USD').periodPrice) {
        expect(renewal.amountMinor).toBe(planOf('monthly_3d_intro', 'USD').price);
        expect(renewal.at - purchase.at).toBeGreaterThanOrEqual(3 * DAY);
      }
    }
    const refunds = batch.revenueEvents.filter(
      (e) => e.kind === 'refund' || e.kind === 'chargeback',
    );
    expect(refunds.length).toBeGreaterThan(0);
    for (const refund of refunds) {
      expect(refund.amountMinor).toBe(-bought.get(refund.subscriptionId)!.amountMinor!);
    }
  });

  it('fails some renewals, recovers some of them three days later, and cancels the rest', () => {
    const of = (kind: string) => batch.revenueEvents.filter((e) => e.kind === kind);
    const failed = of('renewal_failed');
    const recovered = of('renewal').filter((e) => e.recovered === true);
    expect(failed.length).toBeGreaterThan(0);
    expect(recovered.length).toBeGreaterThan(0);
    expect(of('cancellation').length).toBeGreaterThan(0);
    for (const renewal of recovered) {
      const failure = failed.find((e) => e.subscriptionId === renewal.subscriptionId)!;
      expect(renewal.at - failure.at).toBe(3 * DAY);
    }
    for (const event of [...failed, ...of('cancellation')]) expect(event.amountMinor).toBe(0);
    expect(of('cancellation').every((e) => e.currency === null)).toBe(true);
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

describe('harm asked for a variant', () => {
  const harmed = (harm: HarmOverrides) => {
    const resolved = resolveHarm(['a', 'b'], harm);
    if (!resolved.ok) throw new Error(resolved.error);
    return draw(1, 4000, aPlan({ harm: resolved.value }));
  };

  it('declines that share of its checkouts, who then do not buy; the other arm pays as before', () => {
    const batch = harmed({ b: { declines: 0.6 } });
    const plain = tallyBatch(['a', 'b'], draw(1));
    const tallies = tallyBatch(['a', 'b'], batch);
    const { b } = tallies;
    // Of b's visitors who reached checkout, about 60% were declined instead of drawing a purchase.
    expect(b!.declined / b!.checkout).toBeGreaterThan(0.5);
    expect(b!.declined / b!.checkout).toBeLessThan(0.7);
    expect(b!.purchase).toBeLessThan(plain.b!.purchase * 0.6);
    expect(tallies.a!.declined).toBe(0);
    expect(batch.declines.every((decline) => decline.declineClass === 'do_not_honour')).toBe(true);
    const exposedAt = new Map(batch.exposures.map((e) => [e.visitorId, e.at]));
    expect(batch.declines.every((d) => d.at >= exposedAt.get(d.visitorId)!)).toBe(true);
  });

  it('fails the page script of that share of its visitors, as client errors', () => {
    const batch = harmed({ b: { errors: 0.2 } });
    const { a, b } = tallyBatch(['a', 'b'], batch);
    expect(b!.errors / b!.exposed).toBeGreaterThan(0.15);
    expect(b!.errors / b!.exposed).toBeLessThan(0.25);
    expect(a!.errors).toBe(0);
    expect(new Set(batch.errors.map((error) => error.kind))).toEqual(new Set(['client_error']));
  });

  it('draws the same visitors as before when none is asked for', () => {
    expect(harmed({})).toEqual(draw(1));
  });

  it('refuses a variant the experiment lacks', () => {
    expect(resolveHarm(['a', 'b'], { c: { declines: 1 } })).toEqual({
      ok: false,
      error: '--harm names variant "c", which the experiment does not have (it has a, b)',
    });
  });
});

describe('what a simulated visitor can buy', () => {
  const withGuide = [
    'one_pager',
    'searching',
    'signup',
    'checkout_v3_tr',
    'upsell_an_private',
    'upsell_guide',
    'success',
  ] as const;

  it("offers the arm's upsell tiers (else the route's, else the screen's) at 30% off", () => {
    const screens = offers().after;
    expect(screens).toEqual([
      {
        screen: 'upsell_an_private',
        plans: [
          { family: 'upsell_monthly_999', firstMinor: 699 },
          { family: 'upsell_quarterly_999', firstMinor: 699 },
        ],
      },
    ]);
    const cheaper = offers({ upsellPlans: ['upsell_quarterly_599', 'upsell_monthly_599'] });
    expect(cheaper.after[0]!.plans).toEqual([
      { family: 'upsell_quarterly_599', firstMinor: 419 },
      { family: 'upsell_monthly_599', firstMinor: 419 },
    ]);
    // The main plans at their first payment, no coupon: the 7-day intro at 6.99.
    expect(cheaper.main.map((plan) => plan.firstMinor)).toEqual([699, 3999, 5999]);
    // A list of another role is not the upsell's: the screen sells its own.
    expect(offers({ upsellPlans: ['guide_899'] }).after).toEqual(screens);
  });

  it('offers the guide only where the flow has it, and nothing before the trigger', () => {
    const choices = { ...NO_PLAN_CHOICES, guidePlans: ['guide_1799' as const] };
    const walked = offersOf({ ...choices, screens: withGuide }, 'USD', 0);
    expect(walked.after.map((offer) => offer.screen)).toEqual([
      'upsell_an_private',
      'upsell_guide',
    ]);
    expect(walked.after[1]!.plans).toEqual([{ family: 'guide_1799', firstMinor: 1799 }]);
    // A guide price test exposes at the guide: the upsell before it was passed unexposed.
    const atGuide = offersOf({ ...choices, screens: withGuide }, 'USD', 5);
    expect(atGuide.after.map((offer) => offer.screen)).toEqual(['upsell_guide']);
    const stripe = screensInCode(EMPTY_CONTENT, DEFAULT_FLOWS.flows.stripe_test!);
    expect(offersOf({ ...choices, screens: stripe }, 'USD', 0).after).toEqual([]);
  });

  /** An upsell price test: exposed at the upsell (index 4), 90 days back for renewals. */
  function upsellTest(rates: Parameters<typeof resolveRates>[1] = {}) {
    const resolved = resolveRates({ ...landing, first: 'upsell' }, rates);
    if (!resolved.ok) throw new Error(resolved.error);
    const cheap = offers({ upsellPlans: ['upsell_monthly_599'] }, 4);
    const plan = aPlan({
      first: 'upsell',
      rates: resolved.value,
      offers: { a: { default: offers({}, 4) }, b: { default: cheap } },
      routes: ['default'],
    });
    let id = 0;
    return simulateBatch(plan, {
      count: 4000,
      window: exposureWindow(NOW, 90),
      random: seededRandom(3),
      newId: () => `id-${++id}`,
    });
  }

  it("charges an upsell test's arms their own tier at 30% off, and renews it at full price", () => {
    const batch = upsellTest();
    const variantOf = new Map(batch.exposures.map((e) => [e.visitorId, e.variant]));
    // Only the upsells: the main purchase came before the exposure.
    expect(batch.purchases.every((p) => p.upsell)).toBe(true);
    const paid = (variant: string) =>
      new Set(
        batch.purchases
          .filter((p) => variantOf.get(p.visitorId) === variant)
          .map((p) => p.amountMinor),
      );
    expect(paid('a')).toEqual(new Set([699]));
    expect(paid('b')).toEqual(new Set([419]));
    const tallies = tallyBatch(['a', 'b'], batch);
    expect(tallies.b!.paidMinor).toBe(419 * tallies.b!.upsell);
    expect(tallies.b!.upsell / tallies.b!.exposed).toBeCloseTo(CHALLENGER_RATES.upsell, 1);

    const upsells = new Map(batch.purchases.map((p) => [p.subscriptionId, p]));
    const renewed = batch.revenueEvents.filter(
      (e) => e.kind === 'renewal' && upsells.has(e.subscriptionId),
    );
    expect(renewed.length).toBeGreaterThan(0);
    for (const renewal of renewed) {
      const bought = upsells.get(renewal.subscriptionId)!;
      expect(renewal.amountMinor).toBe(bought.amountMinor === 699 ? 999 : 599);
      expect(renewal.at - bought.at).toBeGreaterThanOrEqual(30 * DAY);
    }
    // The main plans bought before the exposure renew and are refunded after it, as real ones.
    const mains = batch.revenueEvents.filter((e) => !upsells.has(e.subscriptionId));
    expect(mains.some((e) => e.kind === 'renewal' && e.amountMinor === 3999)).toBe(true);
  });

  it('lets --rates set each arm’s upsell take rate', () => {
    const tallies = tallyBatch(['a', 'b'], upsellTest({ a: { upsell: 0.1 }, b: { upsell: 0.5 } }));
    expect(tallies.a!.upsell / tallies.a!.exposed).toBeCloseTo(0.1, 1);
    expect(tallies.b!.upsell / tallies.b!.exposed).toBeCloseTo(0.5, 1);
  });

  it('buys the guide at its one-time price where the flow has it, and never renews it', () => {
    const guide = offersOf(
      { ...NO_PLAN_CHOICES, guidePlans: ['guide_1799'], screens: withGuide },
      'USD',
      0,
    );
    const batch = draw(
      4,
      4000,
      aPlan({ offers: { a: { default: guide }, b: { default: guide } }, routes: ['default'] }),
    );
    const guides = batch.purchases.filter((p) => p.upsell && p.amountMinor === 1799);
    expect(guides.length).toBeGreaterThan(0);
    const ids = new Set(guides.map((p) => p.subscriptionId));
    const events = batch.revenueEvents.filter((e) => ids.has(e.subscriptionId));
    expect(events.every((e) => e.kind !== 'renewal')).toBe(true);
  });
});

describe('the plan of an upsell or guide price test', () => {
  const variants = (change: ExperimentDocument['variants'][string]['change']) => ({
    a: { weight: 1, change: {} },
    b: { weight: 1, change },
  });
  /** A default route, and a TikTok route whose flow has the guide and sets its own prices. */
  const config = (change: ExperimentDocument['variants'][string]['change']): FunnelConfig =>
    ({
      version: 'v1+v1',
      split: DEFAULT_SPLIT,
      flows: {
        version: 'v1',
        flows: {
          ...DEFAULT_FLOWS.flows,
          guided: ['one_pager', 'signup', 'checkout_v3_tr', 'upsell_an_private', 'upsell_guide'],
        },
      },
      routing: {
        version: 'v1',
        audiences: {},
        routes: [
          { id: 'default', flow: 'default' },
          {
            id: 'tiktok',
            flow: 'guided',
            upsellPlans: ['upsell_monthly_799'],
            guidePlans: ['guide_1799'],
          },
        ],
      },
      experiments: {
        version: 'e1',
        experiments: {
          up: {
            name: 'Up',
            status: 'running',
            layer: 'upsell',
            audience: {},
            coverage: 1,
            seed: 'up',
            control: 'a',
            variants: variants(change),
          },
        },
      },
      content: EMPTY_CONTENT,
    }) as FunnelConfig;
  const afterMain = (plan: SimulationPlan, variant: string, route: string) =>
    plan.offers[variant]![route]!.after.map((offer) => [offer.screen, offer.plans]);

  it("offers each arm its tiers, else the route's, at 30% off, and the guide where the flow has it", () => {
    const run = planSimulation(config({ upsellPlans: ['upsell_monthly_599'] }), 'up', {
      rates: {},
      vitals: {},
    });
    if (!run.ok) throw new Error(run.error);
    const { plan } = run.value;
    expect(plan.first).toBe('upsell');
    const guide = ['upsell_guide', [{ family: 'guide_1799', firstMinor: 1799 }]];
    expect(afterMain(plan, 'a', 'tiktok')).toEqual([
      ['upsell_an_private', [{ family: 'upsell_monthly_799', firstMinor: 559 }]],
      guide,
    ]);
    expect(afterMain(plan, 'b', 'tiktok')).toEqual([
      ['upsell_an_private', [{ family: 'upsell_monthly_599', firstMinor: 419 }]],
      guide,
    ]);
    expect(afterMain(plan, 'a', 'default')).toEqual([
      [
        'upsell_an_private',
        [
          { family: 'upsell_monthly_999', firstMinor: 699 },
          { family: 'upsell_quarterly_999', firstMinor: 699 },
        ],
      ],
    ]);
  });

  it('exposes a guide price test at the guide, on the routes whose flow has one', () => {
    const run = planSimulation(config({ guidePlans: ['guide_899'] }), 'up', {
      rates: {},
      vitals: {},
    });
    if (!run.ok) throw new Error(run.error);
    const { plan } = run.value;
    expect(plan.routes).toEqual(['tiktok']);
    expect(afterMain(plan, 'b', 'tiktok')).toEqual([
      ['upsell_guide', [{ family: 'guide_899', firstMinor: 899 }]],
    ]);
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
