import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentsDocument } from '../../../shared/config/experiments';
import {
  shardOfVisitor,
  VISITOR_ROWS_KEPT_MS,
} from '../../../worker/experiments/assignment/assign';
import { recordExposures } from '../../../worker/experiments/exposure/exposure-store';
import type { ExperimentExposure } from '../../../worker/experiments/store/every-experiment-statements';
import { recordPurchases } from '../../../worker/experiments/store/experiment-purchase';
import {
  readExperimentPhases,
  readExperimentRows,
  runOnLegacy,
  shardStub,
} from '../../../worker/experiments/store/experiment-stores';
import type { Outcome } from '../../../worker/experiments/store/outcomes';
import { recordOutcomes } from '../../../worker/experiments/store/record-outcomes';
import type { RevenueEvent } from '../../../worker/experiments/store/revenue-events';
import {
  exposureStatement,
  purchaseStatements,
} from '../../../worker/experiments/store/split-statements';
import { STRATA_MIGRATION } from '../../../worker/experiments/store/strata-statements';
import { applyToExperiments } from '../../../worker/lifecycle/apply';
import { twoArmTest } from '../../fixtures/two-arm-test';
import { freshApp, putConfig } from '../fetch-app';
import {
  aBrowser,
  countedShards,
  emptyExperiments,
  recordConfirmedExposures,
  SEGMENTS,
  shardRows,
  stores,
} from './experiment-fixtures';

/**
 * Every experiment counted in the shards (worker/experiments/store/every-experiment-schema.ts): each
 * exposure with its segments, only what happened after it, each purchase and lifecycle event
 * once, the split's visitors of its own tables kept and never counted twice, and the shards'
 * parts added exactly.
 */

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function exposure(
  visitorId: string,
  experiment: string,
  variant: string,
  at: number,
  segments = SEGMENTS,
): ExperimentExposure {
  return { visitorId, experiment, phase: 1, variant, configVersion: 'v1+v1', at, segments };
}

/** As a page writes them (all of one visitor's exposures in one request), and its script confirms. */
async function expose(...exposures: ExperimentExposure[]) {
  await recordConfirmedExposures(stores, exposures);
}

const rowsOf = async (experiment: string, phase = 1) =>
  (await readExperimentRows(stores, experiment, phase)).rows;

const NO_STEPS = {
  reached_lookup: 0,
  signed_up: 0,
  reached_checkout: 0,
  purchased: 0,
  upsold: 0,
  declined: 0,
  refunded: 0,
  purchases: 0,
  unpriced_purchases: 0,
  bots: 0,
  over_budget: 0,
  unconfirmed: 0,
};

const purchase = (visitorId: string, subscriptionId: string, amountMinor: number, at: number) => ({
  subscriptionId,
  visitorId,
  amountMinor,
  currency: 'USD',
  at,
});

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

describe('a page exposing a visitor to two experiments', () => {
  const experiment = twoArmTest;

  it('records both in one request to the shard, each with the segments of the page', async () => {
    await putConfig('split', {
      version: 1,
      defaultVariant: 'default',
      variants: { default: { weight: 1 } },
    });
    const document: ExperimentsDocument = {
      version: 'e1',
      experiments: {
        'pw-price': experiment('paywall', 'pw-price', {
          plans: ['monthly_3d_intro', 'quarterly'],
        }),
        'lp-ai': experiment('landing', 'lp-ai', { screens: { landing: 'one_pager_ai' } }),
      },
    };
    await env.FUNNEL_CONFIG.put('experiments', JSON.stringify(document));
    const { shards, calls } = countedShards();
    const browser = aBrowser(
      freshApp({ random: () => 0.7, now: () => T0 }, { EXPERIMENT_SHARDS: shards }),
    );
    // Straight to the paywall, past both triggers, from a Meta ad, in Germany.
    const page = await browser.get('/checkout_v3_tr?utm_source=facebook', {
      'cf-ipcountry': 'DE',
    });
    expect(page.status).toBe(200);
    // The page's exposures, then its script's confirmation of them: one request each.
    expect(calls).toEqual(['recordExperimentExposures', 'confirmExposures']);
    const visitor = browser.visitorId() ?? '';
    const rows = await shardRows<Record<string, unknown>>(
      `SELECT e.visitor_id, e.experiment, e.variant, e.exposed_at, s.country, s.source,
              s.platform, s.in_app, s.language, s.route
       FROM xp_exposures AS e JOIN xp_segment_sets AS s ON s.id = e.segments
       ORDER BY e.experiment`,
    );
    const segments = {
      country: 'DE',
      source: 'meta',
      platform: 'desktop',
      in_app: 'none',
      language: 'en',
      route: 'default',
    };
    expect(rows).toEqual([
      { visitor_id: visitor, experiment: 'lp-ai', variant: 'b', exposed_at: T0, ...segments },
      { visitor_id: visitor, experiment: 'pw-price', variant: 'b', exposed_at: T0, ...segments },
    ]);
    for (const id of ['lp-ai', 'pw-price']) {
      const { arms, segments: levels } = await rowsOf(id);
      expect(arms).toEqual([{ variant: 'b', exposed: 1, ...NO_STEPS }]);
      expect(levels.map((row) => [row.dimension, row.level, row.exposed])).toEqual([
        ['country', 'DE', 1],
        ['in_app', 'none', 1],
        ['language', 'en', 1],
        ['platform', 'desktop', 1],
        ['route', 'default', 1],
        ['source', 'meta', 1],
      ]);
    }
  });
});

describe('what happened after exposure, and only that', () => {
  it('a paywall test does not count the lookup its visitor made before reaching the paywall', async () => {
    const visitor = crypto.randomUUID();
    await expose(exposure(visitor, 'lp-ai', 'b', T0));
    await expose(exposure(visitor, 'pw-price', 'cheap', T0 + 10 * MINUTE));
    await recordOutcomes(stores, [
      { visitorId: visitor, event: 'onboarding_start', at: T0 + MINUTE },
      { visitorId: visitor, event: 'checkout_screen_load', at: T0 + 10 * MINUTE + 1000 },
    ]);
    const landing = await rowsOf('lp-ai');
    const paywall = await rowsOf('pw-price');
    expect(landing.arms[0]).toMatchObject({ reached_lookup: 1, reached_checkout: 1 });
    expect(paywall.arms[0]).toMatchObject({ reached_lookup: 0, reached_checkout: 1 });
    expect(paywall.days[0]).toMatchObject({ day: '2026-11-20', reached_lookup: 0 });
    expect(
      paywall.segments.every((row) => row.reached_lookup === 0 && row.reached_checkout === 1),
    ).toBe(true);
  });

  it('counts steps, declines and purchases once, however often they are delivered', async () => {
    const [buyer, early] = [crypto.randomUUID(), crypto.randomUUID()];
    await expose(exposure(buyer, 'pw-price', 'cheap', T0));
    await expose(exposure(early, 'pw-price', 'cheap', T0));
    const outcomes: Outcome[] = [
      { visitorId: buyer, event: 'lead', at: T0 + 1000 },
      { visitorId: buyer, event: 'subs_purchase_failed', at: T0 + 2000 },
    ];
    const purchases = [
      purchase(buyer, 'sub_1', 699, T0 + 3000),
      purchase(early, 'sub_2', 699, T0 - 1),
    ];
    for (let delivery = 0; delivery < 2; delivery++) {
      await recordOutcomes(stores, outcomes);
      await recordPurchases(stores, purchases);
    }
    const rows = await rowsOf('pw-price');
    expect(rows.arms).toEqual([
      {
        variant: 'cheap',
        exposed: 2,
        ...NO_STEPS,
        signed_up: 1,
        declined: 1,
        purchased: 1,
        purchases: 1,
      },
    ]);
    const bucket = { variant: 'cheap', currency: 'USD', revenue_minor: 699, visitors: 1 };
    expect(rows.revenue).toEqual([bucket]);
    expect(rows.netRevenue).toEqual([bucket]);
    expect(rows.dayRevenue).toEqual([{ ...bucket, day: '2026-11-20' }]);
    expect(rows.dayNetRevenue).toEqual([{ ...bucket, day: '2026-11-20' }]);
    expect(rows.days).toEqual([
      expect.objectContaining({ day: '2026-11-20', exposed: 2, signed_up: 1, purchased: 1 }),
    ]);
  });

  it('counts a decline’s class only in the experiments its visitor was exposed to before it', async () => {
    const visitor = crypto.randomUUID();
    await expose(exposure(visitor, 'lp-ai', 'b', T0));
    await expose(exposure(visitor, 'pw-price', 'cheap', T0 + 10 * MINUTE));
    const declines: Outcome[] = [
      {
        visitorId: visitor,
        event: 'subs_purchase_failed',
        at: T0 + MINUTE,
        declineClass: 'card_invalid',
      },
      {
        visitorId: visitor,
        event: 'subs_purchase_failed',
        at: T0 + 11 * MINUTE,
        declineClass: 'authentication_failed',
      },
    ];
    await recordOutcomes(stores, declines);
    await recordOutcomes(stores, declines);
    expect((await rowsOf('lp-ai')).declines).toEqual([
      { variant: 'b', decline_class: 'authentication_failed', visitors: 1 },
      { variant: 'b', decline_class: 'card_invalid', visitors: 1 },
    ]);
    expect((await rowsOf('pw-price')).declines).toEqual([
      { variant: 'cheap', decline_class: 'authentication_failed', visitors: 1 },
    ]);
  });

  it('an upsell sets upsold, not purchased, and its revenue adds to the buyer’s', async () => {
    const visitor = crypto.randomUUID();
    await expose(exposure(visitor, 'split', 'default', T0));
    await expose(exposure(visitor, 'up-guide', 'b', T0 + 5 * MINUTE));
    await recordPurchases(stores, [
      purchase(visitor, 'sub_main', 699, T0 + 4 * MINUTE),
      { ...purchase(visitor, 'sub_up', 999, T0 + 6 * MINUTE), upsell: true },
    ]);
    const split = await rowsOf('split');
    const upsell = await rowsOf('up-guide');
    expect(split.arms[0]).toMatchObject({ purchased: 1, upsold: 1, purchases: 2 });
    expect(split.revenue).toEqual([
      { variant: 'default', currency: 'USD', revenue_minor: 1698, visitors: 1 },
    ]);
    // The main plan was bought before the upsell test acted: not its.
    expect(upsell.arms[0]).toMatchObject({ purchased: 0, upsold: 1, purchases: 1 });
    expect(upsell.revenue).toEqual([
      { variant: 'b', currency: 'USD', revenue_minor: 999, visitors: 1 },
    ]);
  });
});

describe('lifecycle events', () => {
  const event = (
    visitorId: string,
    eventId: string,
    kind: RevenueEvent['kind'],
    amountMinor: number,
    at: number,
  ): RevenueEvent => ({
    eventId,
    subscriptionId: 'sub_1',
    visitorId,
    kind,
    amountMinor,
    currency: 'USD',
    at,
  });

  it('move net revenue in each experiment exposed before the purchase, once per event id', async () => {
    const [buyer, stranger] = [crypto.randomUUID(), crypto.randomUUID()];
    await expose(exposure(buyer, 'pw-price', 'cheap', T0));
    await expose(exposure(buyer, 'up-guide', 'b', T0 + 2 * DAY));
    await recordPurchases(stores, [purchase(buyer, 'sub_1', 699, T0 + MINUTE)]);
    const renewal = event(buyer, 'evt_renewal', 'renewal', 699, T0 + 30 * DAY);
    await applyToExperiments(env, [renewal]);
    await applyToExperiments(env, [renewal, event(stranger, 'evt_other', 'renewal', 699, T0)]);

    const net = (rows: Awaited<ReturnType<typeof rowsOf>>) =>
      rows.netRevenue.map((row) => [row.variant, row.revenue_minor, row.visitors]);
    expect(net(await rowsOf('pw-price'))).toEqual([['cheap', 1398, 1]]);
    // Exposed after the plan was bought: its renewals are not the upsell test's, which they
    // would only fill with variance alike in every arm.
    expect(net(await rowsOf('up-guide'))).toEqual([]);
    expect((await rowsOf('pw-price')).revenue).toEqual([
      { variant: 'cheap', currency: 'USD', revenue_minor: 699, visitors: 1 },
    ]);
    // The stranger bought nothing after an exposure: their event changed nothing, left no id.
    expect(await shardRows('SELECT event_id FROM xp_revenue_events')).toEqual([
      { event_id: 'evt_renewal' },
    ]);

    await applyToExperiments(env, [event(buyer, 'evt_refund', 'refund', -699, T0 + 31 * DAY)]);
    const paywall = await rowsOf('pw-price');
    expect(net(paywall)).toEqual([['cheap', 699, 1]]);
    expect(paywall.arms[0]).toMatchObject({ refunded: 1 });
    expect(paywall.dayNetRevenue).toEqual([
      { day: '2026-11-20', variant: 'cheap', currency: 'USD', revenue_minor: 699, visitors: 1 },
    ]);
    // Nor is the main plan's refund.
    expect((await rowsOf('up-guide')).arms[0]).toMatchObject({ refunded: 0 });
  });

  it('count an upsell bought after the exposure, with its renewals and refund, in the upsell test', async () => {
    const buyer = crypto.randomUUID();
    await expose(exposure(buyer, 'up-guide', 'b', T0 + 5 * MINUTE));
    await recordPurchases(stores, [
      purchase(buyer, 'sub_main', 699, T0 + 4 * MINUTE),
      { ...purchase(buyer, 'sub_up', 699, T0 + 6 * MINUTE), upsell: true },
    ]);
    const upsellEvent = (
      eventId: string,
      kind: RevenueEvent['kind'],
      amount: number,
      at: number,
    ) => ({
      ...event(buyer, eventId, kind, amount, at),
      subscriptionId: 'sub_up',
    });
    await applyToExperiments(env, [
      {
        ...event(buyer, 'evt_main_renewal', 'renewal', 699, T0 + 30 * DAY),
        subscriptionId: 'sub_main',
      },
      upsellEvent('evt_up_renewal', 'renewal', 999, T0 + 30 * DAY),
    ]);
    const net = async () =>
      (await rowsOf('up-guide')).netRevenue.map((row) => [row.variant, row.revenue_minor]);
    // The upsell's first payment and renewal; the main plan's renewal not.
    expect(await net()).toEqual([['b', 699 + 999]]);
    await applyToExperiments(env, [upsellEvent('evt_up_refund', 'refund', -999, T0 + 31 * DAY)]);
    expect(await net()).toEqual([['b', 699]]);
    expect((await rowsOf('up-guide')).arms[0]).toMatchObject({ refunded: 1 });
  });
});

describe('the split', () => {
  it('never counts again a visitor of its own tables, whose results still add', async () => {
    const [inShard, inLegacy, fresh] = [
      crypto.randomUUID(),
      crypto.randomUUID(),
      crypto.randomUUID(),
    ];
    const old = (visitorId: string) => ({
      visitorId,
      phase: 1,
      variant: 'default',
      configVersion: 'v1+v1',
      at: T0 - DAY,
      route: 'default',
      source: 'direct',
    });
    await recordExposures(stores, [old(inShard)]);
    await runOnLegacy(env.EVENTS_DB, [exposureStatement([old(inLegacy)])]);
    for (const visitor of [inShard, inLegacy, fresh]) {
      await recordConfirmedExposures(
        stores,
        [exposure(visitor, 'split', 'default', T0), exposure(visitor, 'lp-ai', 'b', T0)],
        { returning: visitor !== fresh },
      );
    }
    await recordOutcomes(stores, [
      { visitorId: inShard, event: 'lead', at: T0 - DAY + 1 },
      { visitorId: fresh, event: 'lead', at: T0 + 1 },
    ]);
    await recordPurchases(stores, [purchase(inShard, 'sub_old', 699, T0)]);
    await runOnLegacy(env.EVENTS_DB, purchaseStatements([purchase(inLegacy, 'sub_l', 999, T0)]));

    expect(
      await shardRows("SELECT visitor_id FROM xp_exposures WHERE experiment = 'split'"),
    ).toEqual([{ visitor_id: fresh }]);
    // Every experiment still counts them.
    expect((await rowsOf('lp-ai')).arms[0]).toMatchObject({ exposed: 3 });
    const { rows, phases } = await readExperimentRows(stores, 'split', 1);
    expect(phases).toEqual([1]);
    expect(rows.arms).toEqual([
      {
        variant: 'default',
        exposed: 3,
        ...NO_STEPS,
        signed_up: 2,
        purchased: 2,
        purchases: 2,
      },
    ]);
    const buckets = [
      { variant: 'default', currency: 'USD', revenue_minor: 699, visitors: 1 },
      { variant: 'default', currency: 'USD', revenue_minor: 999, visitors: 1 },
    ];
    expect(rows.revenue).toEqual(buckets);
    // Their first payments stand for their net: nothing after it was counted for them.
    expect(rows.netRevenue).toEqual(buckets);
    expect(await readExperimentPhases(stores, 'split')).toEqual([1]);
  });
});

it('retention deletes every experiment’s visitor rows past their time, and keeps the totals', async () => {
  const now = Date.now();
  const [old, recent] = [crypto.randomUUID(), crypto.randomUUID()];
  const longAgo = now - VISITOR_ROWS_KEPT_MS - DAY;
  await expose(exposure(old, 'pw-price', 'cheap', longAgo));
  await expose(exposure(recent, 'pw-price', 'cheap', now - DAY));
  await recordPurchases(stores, [purchase(old, 'sub_old', 699, longAgo + 1)]);
  await applyToExperiments(env, [
    {
      eventId: 'evt_old',
      subscriptionId: 'sub_old',
      visitorId: old,
      kind: 'renewal',
      amountMinor: 699,
      currency: 'USD',
      at: longAgo + 2,
    },
  ]);
  const before = await rowsOf('pw-price');
  for (const visitor of [old, recent]) {
    await runInDurableObject(shardStub(stores, shardOfVisitor(visitor)), (shard) => shard.alarm());
  }
  const visitors = async (table: string) =>
    (await shardRows<{ visitor_id: string }>(`SELECT visitor_id FROM ${table}`)).map(
      (row) => row.visitor_id,
    );
  expect(await visitors('xp_exposures')).toEqual([recent]);
  expect(await visitors('xp_purchases')).toEqual([]);
  expect(await visitors('xp_money')).toEqual([]);
  expect(await shardRows('SELECT * FROM xp_revenue_events')).toEqual([]);
  expect(await rowsOf('pw-price')).toEqual(before);
});

it('adds every shard’s part exactly, one dimension’s segments when asked', async () => {
  const variants = ['a', 'b', 'c'];
  const countries = ['US', 'DE', 'FR', 'BR'];
  const visitors = Array.from({ length: 300 }, (_, n) => ({
    id: crypto.randomUUID(),
    variant: variants[n % 3]!,
    country: countries[n % 4]!,
    day: n % 5,
  }));
  await Promise.all(
    visitors.map((v) =>
      expose(exposure(v.id, 'x', v.variant, T0 + v.day * DAY, { ...SEGMENTS, country: v.country })),
    ),
  );
  await recordOutcomes(
    stores,
    visitors
      .filter((_, n) => n % 2 === 0)
      .map((v) => ({ visitorId: v.id, event: 'lead', at: T0 + 9 * DAY })),
  );
  await recordPurchases(
    stores,
    visitors
      .filter((_, n) => n % 7 === 0)
      .map((v, n) => purchase(v.id, `sub_${n}`, 100 * (1 + (n % 3)), T0 + 9 * DAY)),
  );
  const shardsUsed = new Set(visitors.map((v) => shardOfVisitor(v.id)));
  expect(shardsUsed.size).toBeGreaterThan(30);

  // The truth, from the visitors' rows themselves.
  const truth = await shardRows<{
    visitor_id: string;
    variant: string;
    signed_up: number;
    purchased: number;
  }>("SELECT visitor_id, variant, signed_up, purchased FROM xp_exposures WHERE experiment = 'x'");
  const { rows } = await readExperimentRows(stores, 'x', 1);
  for (const variant of variants) {
    const own = truth.filter((row) => row.variant === variant);
    expect(rows.arms.find((row) => row.variant === variant)).toMatchObject({
      exposed: own.length,
      signed_up: own.reduce((sum, row) => sum + row.signed_up, 0),
      purchased: own.reduce((sum, row) => sum + row.purchased, 0),
    });
    const buyers = rows.revenue
      .filter((row) => row.variant === variant)
      .reduce((sum, row) => sum + row.visitors, 0);
    expect(buyers).toBe(own.reduce((sum, row) => sum + row.purchased, 0));
    const byDay = rows.days.filter((row) => row.variant === variant);
    expect(byDay).toHaveLength(5);
    expect(byDay.reduce((sum, row) => sum + row.exposed, 0)).toBe(own.length);
    for (const dimension of ['country', 'route'] as const) {
      const levels = rows.segments.filter(
        (row) => row.variant === variant && row.dimension === dimension,
      );
      expect(levels.reduce((sum, row) => sum + row.exposed, 0)).toBe(own.length);
    }
  }
  const countryOnly = await readExperimentRows(stores, 'x', 1, 'country');
  expect(new Set(countryOnly.rows.segments.map((row) => row.dimension))).toEqual(
    new Set(['country']),
  );
  expect(countryOnly.rows.segments).toEqual(
    rows.segments.filter((row) => row.dimension === 'country'),
  );
  expect(countryOnly.rows.segments).toHaveLength(12);
  expect((await readExperimentRows(stores, 'x', 2)).rows.arms).toEqual([]);
  expect(await readExperimentPhases(stores, 'x')).toEqual([1]);
});

it('counts each stratum’s visitors, steps and first payments, and the same again from the visitors’ rows', async () => {
  const strata = [
    { country: 'US', platform: 'ios' },
    { country: 'US', platform: 'android' },
    { country: 'DE', platform: 'ios' },
  ];
  const visitors = Array.from({ length: 90 }, (_, n) => ({
    id: crypto.randomUUID(),
    variant: n % 2 === 0 ? 'a' : 'b',
    ...strata[n % 3]!,
    // Two routes of one stratum: the strata add the segment sets that differ only in route.
    route: n % 5 === 0 ? 'lp-2' : 'default',
  }));
  await Promise.all(
    visitors.map((v) =>
      expose(
        exposure(v.id, 'x', v.variant, T0, {
          ...SEGMENTS,
          country: v.country,
          platform: v.platform,
          route: v.route,
        }),
      ),
    ),
  );
  await recordOutcomes(
    stores,
    visitors
      .filter((_, n) => n % 4 === 0)
      .map((v) => ({ visitorId: v.id, event: 'lead', at: T0 + MINUTE })),
  );
  const buyers = visitors.filter((_, n) => n % 6 === 0);
  await recordPurchases(
    stores,
    buyers.map((v, n) => purchase(v.id, `sub_${n}`, 1000 * (1 + (n % 2)), T0 + 2 * MINUTE)),
  );
  // An upsell moves its buyer's first payments to another amount.
  await recordPurchases(stores, [
    { ...purchase(buyers[0]!.id, 'sub_upsell', 500, T0 + 3 * MINUTE), upsell: true },
  ]);

  const keyOf = (v: (typeof visitors)[number]) =>
    JSON.stringify([v.country, SEGMENTS.source, v.platform, SEGMENTS.language]);
  const { rows } = await readExperimentRows(stores, 'x', 1);
  for (const variant of ['a', 'b']) {
    for (const stratum of new Set(visitors.map(keyOf))) {
      const own = visitors.filter((v) => v.variant === variant && keyOf(v) === stratum);
      const ownBuyers = buyers.filter((v) => own.includes(v));
      expect(rows.strata.find((r) => r.variant === variant && r.stratum === stratum)).toMatchObject(
        {
          exposed: own.length,
          signed_up: own.filter((v) => visitors.indexOf(v) % 4 === 0).length,
          purchased: ownBuyers.length,
          upsold: ownBuyers.includes(buyers[0]!) ? 1 : 0,
        },
      );
      const paid = rows.strataRevenue.filter((r) => r.variant === variant && r.stratum === stratum);
      expect(paid.reduce((sum, r) => sum + r.visitors, 0)).toBe(ownBuyers.length);
      const amounts = ownBuyers.map((v) => {
        const n = buyers.indexOf(v);
        return 1000 * (1 + (n % 2)) + (n === 0 ? 500 : 0);
      });
      expect(paid.reduce((sum, r) => sum + r.revenue_minor * r.visitors, 0)).toBe(
        amounts.reduce((sum, amount) => sum + amount, 0),
      );
    }
  }
  expect(new Set(rows.strata.map((r) => r.stratum)).size).toBe(3);

  // The migration's count of the visitors exposed before it gives the triggers' rows again.
  await Promise.all(
    [...new Set(visitors.map((v) => shardOfVisitor(v.id)))].map((index) =>
      runInDurableObject(shardStub(stores, index), (_shard, state) => {
        state.storage.sql.exec('DELETE FROM xp_strata');
        state.storage.sql.exec('DELETE FROM xp_strata_revenue');
        for (const sql of STRATA_MIGRATION.filter((s) => s.startsWith('INSERT'))) {
          state.storage.sql.exec(sql);
        }
      }),
    ),
  );
  const again = (await readExperimentRows(stores, 'x', 1)).rows;
  expect(again.strata).toEqual(rows.strata);
  expect(again.strataRevenue).toEqual(rows.strataRevenue);
});
