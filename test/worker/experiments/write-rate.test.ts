import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  confirmVisitorExposures,
  recordVisitorExposures,
} from '../../../worker/experiments/exposure/exposure-store';
import type {
  ExperimentExposure,
  ExposureSegments,
} from '../../../worker/experiments/store/every-experiment-statements';
import { recordPurchases } from '../../../worker/experiments/store/experiment-purchase';
import { readExperimentRows, shardStub } from '../../../worker/experiments/store/experiment-stores';
import type { Outcome } from '../../../worker/experiments/store/outcomes';
import { recordOutcomes } from '../../../worker/experiments/store/record-outcomes';
import type { RevenueEvent } from '../../../worker/experiments/store/revenue-events';
import type { ExperimentPurchase } from '../../../worker/experiments/store/split-statements';
import { applyToExperiments } from '../../../worker/lifecycle/apply';
import { asDeliveries, consumer } from '../collector/consume';
import { anEvent, aSeenStep } from '../collector/fixtures';
import { emptyExperiments, shardRows, stores } from './experiment-fixtures';

/**
 * The write rate of the experiment shards in local workerd (SQLite Durable Objects on disk),
 * through the worker's own code, with five experiments running: the split (flow layer, exposed
 * on the landing) and one each in the landing, signup, paywall and upsell layers, each exposing
 * the share of visitors that reaches its trigger and enters it. Exposures one request per
 * visitor, as pages write them; outcomes in the queue consumer's batches of 100, split by shard;
 * verified purchases; lifecycle events. And what a visitor costs a shard's storage, measured in
 * one shard. Prints what it measured (docs/statistics.md, "What is counted", and
 * worker/experiments/assignment/assign.ts, which sizes the shard count from it); proves the counts
 * stay exact at volume.
 */

/**
 * Five batches of outcomes, two of the consumer and twelve rounds of 50 pages at once: enough
 * for the counts to be exact across batches and at concurrency (the smallest share counted, the
 * refunds, is one visitor in 200). The rates it prints are local workerd's, a guide only; what a
 * visitor costs each store is the data benchmark's (`npm run bench -- data`). 1,000 visitors
 * took 10.6 s alone for the same assertions, 2,000 some 14 s of a full run.
 */
const VISITORS = 400;
/** The visitors whose leads reach the consumer as steps the worker saw (the rest as outcomes). */
const CONSUMED = VISITORS / 2;
const CONCURRENCY = 50;
const BATCH = 100;

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);
const MINUTE = 60_000;

/**
 * The experiments a visitor `n` of a realistic mix is exposed to, and when after arriving: all
 * to the split; 40% to the landing test (its audience and coverage); 24% reach the sign-up test
 * (30% sign up, 80% coverage); 10% the paywall price test (25% reach it, 40% in its audience);
 * 4% the upsell test (5% buy, 80% coverage).
 */
function experimentsOf(n: number): { experiment: string; after: number }[] {
  return [
    { experiment: 'split', after: 0 },
    ...(n % 5 < 2 ? [{ experiment: 'landing-ai', after: 0 }] : []),
    ...(n % 25 < 6 ? [{ experiment: 'signup-testimonials', after: 2 * MINUTE }] : []),
    ...(n % 10 === 0 ? [{ experiment: 'paywall-price-us', after: 3 * MINUTE }] : []),
    ...(n % 25 === 0 ? [{ experiment: 'upsell-guide', after: 5 * MINUTE }] : []),
  ];
}

const COUNTRIES = ['US', 'DE', 'GB', 'FR', 'BR', 'MX', 'IN', 'ES', 'IT', 'CA'];
const SOURCES = ['meta', 'tiktok', 'google', 'direct', 'other'];
const PLATFORMS = ['ios', 'android', 'desktop'];
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt'];
const ROUTES = ['default', 'tiktok-de', 'meta-us', 'google-search', 'retarget'];

function segmentsOf(n: number): ExposureSegments {
  const pick = (levels: readonly string[], by: number) =>
    levels[Math.floor(n / by) % levels.length]!;
  return {
    country: pick(COUNTRIES, 1),
    source: pick(SOURCES, 3),
    platform: pick(PLATFORMS, 7),
    in_app: n % 6 === 0 ? 'instagram' : 'none',
    language: pick(LANGUAGES, 11),
    route: pick(ROUTES, 13),
  };
}

function exposuresOf(visitorId: string, n: number, arrived: number): ExperimentExposure[] {
  return experimentsOf(n).map(({ experiment, after }) => ({
    visitorId,
    experiment,
    phase: 1,
    variant: n % 2 ? 'b' : 'control',
    configVersion: 'v41+v12',
    at: arrived + after,
    segments: segmentsOf(n),
  }));
}

/**
 * A funnel's shape, each step after the exposures it follows: 60% start the lookup, 30% sign
 * up, 25% reach checkout, 2% have a payment declined. Each on the visitor's route, which counts
 * the steps by route (route_step_days).
 */
function outcomesOf(visitorId: string, n: number, arrived: number): Outcome[] {
  const route = segmentsOf(n).route;
  return [
    ...(n % 10 < 6
      ? [{ visitorId, route, event: 'onboarding_start' as const, at: arrived + MINUTE }]
      : []),
    ...(n % 10 < 3 ? [{ visitorId, route, event: 'lead' as const, at: arrived + 2 * MINUTE }] : []),
    ...(n % 20 < 5
      ? [{ visitorId, route, event: 'checkout_screen_load' as const, at: arrived + 3 * MINUTE }]
      : []),
    ...(n % 50 === 1
      ? [{ visitorId, route, event: 'subs_purchase_failed' as const, at: arrived + 4 * MINUTE }]
      : []),
  ];
}

/** 5% buy the main plan (a 699 intro), 1% the upsell as well (999). */
function purchasesOf(visitorId: string, n: number, arrived: number): ExperimentPurchase[] {
  if (n % 20 !== 0) return [];
  const main = {
    subscriptionId: `sub_${visitorId}`,
    visitorId,
    route: segmentsOf(n).route,
    amountMinor: 699,
    currency: 'USD',
    at: arrived + 4 * MINUTE,
  };
  if (n % 100 !== 0) return [main];
  return [
    main,
    {
      ...main,
      subscriptionId: `up_${visitorId}`,
      amountMinor: 999,
      upsell: true,
      at: arrived + 6 * MINUTE,
    },
  ];
}

/** Each buyer's first renewal a month on; one buyer in ten refunds it a day later. */
function revenueEventsOf(visitorId: string, n: number, arrived: number): RevenueEvent[] {
  if (n % 20 !== 0) return [];
  const renewal: RevenueEvent = {
    eventId: `evt_r_${visitorId}`,
    subscriptionId: `sub_${visitorId}`,
    visitorId,
    kind: 'renewal',
    amountMinor: 1999,
    currency: 'USD',
    at: arrived + 30 * 24 * 60 * MINUTE,
  };
  return n % 200 === 0
    ? [renewal, { ...renewal, eventId: `evt_f_${visitorId}`, kind: 'refund', amountMinor: -1999 }]
    : [renewal];
}

const T0 = Date.UTC(2026, 10, 1);

it(`writes ${VISITORS} visitors of five experiments exactly, and reports the rate`, {
  timeout: 180_000,
}, async () => {
  const ids = Array.from(
    { length: VISITORS },
    (_, n) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
  );
  const arrivedAt = (n: number) => T0 + n * 1000;

  // As pages write them: one request per visitor and page, CONCURRENCY at a time (each
  // experiment's trigger on its own page, as a visitor walks the funnel).
  const pages = ids.flatMap((id, n) => {
    const byPage = new Map<number, ExperimentExposure[]>();
    for (const exposure of exposuresOf(id, n, arrivedAt(n))) {
      byPage.set(exposure.at, [...(byPage.get(exposure.at) ?? []), exposure]);
    }
    return [...byPage.values()];
  });
  let started = performance.now();
  for (let from = 0; from < pages.length; from += CONCURRENCY) {
    await Promise.all(
      pages
        .slice(from, from + CONCURRENCY)
        .map((page) => recordVisitorExposures(stores, page, { returning: false })),
    );
  }
  const exposureMs = performance.now() - started;
  // Each page's script confirms its exposures: one request more per page.
  const confirmationOf = (page: (typeof pages)[number]) =>
    page.map(({ visitorId, at }) => ({ visitorId, until: at }));
  started = performance.now();
  for (let from = 0; from < pages.length; from += CONCURRENCY) {
    await Promise.all(
      pages
        .slice(from, from + CONCURRENCY)
        .map((page) => confirmVisitorExposures(stores, confirmationOf(page))),
    );
  }
  const confirmationMs = performance.now() - started;
  // Some pages again, and their tickets: nobody is exposed twice.
  for (const page of pages.slice(0, BATCH)) {
    await recordVisitorExposures(stores, page, { returning: false });
    await confirmVisitorExposures(stores, confirmationOf(page));
  }

  const outcomes = ids.flatMap((id, n) => outcomesOf(id, n, arrivedAt(n)));
  started = performance.now();
  for (let from = 0; from < outcomes.length; from += BATCH) {
    await recordOutcomes(stores, outcomes.slice(from, from + BATCH));
  }
  const outcomeMs = performance.now() - started;

  // The whole consumer on batches of 100 steps the worker saw: deliveries and the flags.
  const messages = ids
    .slice(0, CONSUMED)
    .map((id) => aSeenStep(anEvent({ event_type: 'lead', device_id: id }), { visitor_id: id }));
  started = performance.now();
  for (let from = 0; from < messages.length; from += BATCH) {
    await consumer().run(asDeliveries(messages.slice(from, from + BATCH)));
  }
  const consumerMs = performance.now() - started;

  const purchases = ids.flatMap((id, n) => purchasesOf(id, n, arrivedAt(n)));
  started = performance.now();
  for (const purchase of purchases) await recordPurchases(stores, [purchase]);
  const purchaseMs = performance.now() - started;

  const events = ids.flatMap((id, n) => revenueEventsOf(id, n, arrivedAt(n)));
  started = performance.now();
  for (const event of events) await applyToExperiments(env, [event]);
  const eventMs = performance.now() - started;

  // Every experiment's totals are what the mix says, exactly.
  const expected = (experiment: string) => {
    const members = ids
      .map((_, n) => n)
      .filter((n) => experimentsOf(n).some((e) => e.experiment === experiment));
    return { exposed: members.length, members };
  };
  for (const experiment of ['split', 'landing-ai', 'signup-testimonials', 'paywall-price-us']) {
    const { rows } = await readExperimentRows(stores, experiment, 1);
    const { members } = expected(experiment);
    const exposed = rows.arms.reduce((sum, arm) => sum + arm.exposed, 0);
    expect(exposed).toBe(members.length);
  }
  const split = (await readExperimentRows(stores, 'split', 1)).rows;
  const sum = (field: 'reached_lookup' | 'signed_up' | 'purchased' | 'upsold' | 'declined') =>
    split.arms.reduce((total, arm) => total + arm[field], 0);
  expect(sum('reached_lookup')).toBe(VISITORS * 0.6);
  expect(sum('purchased')).toBe(VISITORS / 20);
  expect(sum('upsold')).toBe(VISITORS / 100);
  expect(sum('declined')).toBe(VISITORS / 50);
  // The consumer's leads (the sign-ups the worker saw) came after everything: every one counts.
  expect(sum('signed_up')).toBe(CONSUMED + (VISITORS - CONSUMED) * 0.3);
  const refunded = split.arms.reduce((total, arm) => total + arm.refunded, 0);
  expect(refunded).toBe(VISITORS / 200);
  // The steps by route rode on the same requests, each visitor once a step (the consumer's leads
  // carried no route); the main plans' buyers reached the upsell.
  const steps = await shardRows<{ step: string; reached: number }>(
    'SELECT step, SUM(reached) AS reached FROM route_step_days GROUP BY step ORDER BY step',
  );
  const added = new Map<string, number>();
  for (const row of steps) added.set(row.step, (added.get(row.step) ?? 0) + row.reached);
  expect(Object.fromEntries(added)).toEqual({
    lookup: VISITORS * 0.6,
    signup: VISITORS * 0.3,
    paywall: VISITORS / 4,
    upsell: VISITORS / 20,
  });

  vi.restoreAllMocks();
  console.log(
    JSON.stringify({
      experiment_shard_write_rate: {
        exposure_requests_per_s: perSecond(pages.length, exposureMs),
        exposures_per_visitor: Number(
          (pages.reduce((total, page) => total + page.length, 0) / VISITORS).toFixed(2),
        ),
        exposure_requests_per_visitor: Number((pages.length / VISITORS).toFixed(2)),
        confirmation_requests_per_s: perSecond(pages.length, confirmationMs),
        outcome_updates_per_s: perSecond(outcomes.length, outcomeMs),
        consumer_events_per_s: perSecond(messages.length, consumerMs),
        verified_purchases_per_s: perSecond(purchases.length, purchaseMs),
        lifecycle_events_per_s: perSecond(events.length, eventMs),
      },
    }),
  );
});

/**
 * Twenty chunks of 500. The database's fixed pages weigh a little more on fewer visitors: 274
 * bytes a visitor here, 256 over 20,000 (one run each), the safe side for sizing the shards.
 */
const IN_ONE_SHARD = 10_000;

it(`measures what a visitor of five experiments costs a shard's storage, over ${IN_ONE_SHARD} in one`, {
  timeout: 180_000,
}, async () => {
  const shard = shardStub(stores, 0);
  const sizeBefore = await shard.databaseSize();
  const ids = Array.from({ length: IN_ONE_SHARD }, () => crypto.randomUUID());
  for (let from = 0; from < ids.length; from += 500) {
    const chunk = ids.slice(from, from + 500);
    // Spread over 60 days, as a running experiment's visitors are; each a first visit on their
    // route (route_days), written with the exposures as the worker writes them.
    const arrived = (n: number) => T0 + (from + n) * 259_200;
    const exposures = chunk.flatMap((id, n) => exposuresOf(id, from + n, arrived(n)));
    await shard.recordExperimentExposures(
      exposures,
      chunk.map((visitorId, n) => ({
        visitorId,
        route: segmentsOf(from + n).route,
        at: arrived(n),
        source: segmentsOf(from + n).source,
        campaign: '',
      })),
    );
    // Each page's script confirms it; one confirmation per visitor covers their later pages here.
    await shard.confirmExposures(
      chunk.map((visitorId, n) => ({ visitorId, until: arrived(n) + 5 * MINUTE })),
    );
    await shard.recordOutcomes(chunk.flatMap((id, n) => outcomesOf(id, from + n, arrived(n))));
    await shard.recordPurchases(chunk.flatMap((id, n) => purchasesOf(id, from + n, arrived(n))));
    await shard.recordRevenueEvents(
      chunk.flatMap((id, n) => revenueEventsOf(id, from + n, arrived(n))),
    );
  }
  // The alarm deletes the confirmations a day on (confirmation-statements.ts): what stays is
  // the visitors' rows.
  await runInDurableObject(shard, (_object, state) => {
    state.storage.sql.exec('DELETE FROM xp_confirmed_visitors');
  });
  const bytesPerVisitor = ((await shard.databaseSize()) - sizeBefore) / IN_ONE_SHARD;
  expect(bytesPerVisitor).toBeGreaterThan(0);
  vi.restoreAllMocks();
  console.log(
    JSON.stringify({
      experiment_shard_storage: { bytes_per_visitor: Math.round(bytesPerVisitor) },
    }),
  );
});
