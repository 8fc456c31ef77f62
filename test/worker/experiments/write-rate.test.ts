import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { recordPurchases } from '../../../worker/experiments/experiment-purchase';
import type { ExperimentPurchase } from '../../../worker/experiments/experiment-statements';
import { shardStub } from '../../../worker/experiments/experiment-stores';
import { type Exposure, recordExposures } from '../../../worker/experiments/exposure-store';
import { type Outcome, recordOutcomes } from '../../../worker/experiments/outcomes';
import { asDeliveries, consumer } from '../collector/consume';
import { aMessage, anEvent } from '../collector/fixtures';
import { emptyExperiments, stores, totalsOf } from './experiment-fixtures';

/**
 * The write rate of the experiment's shards in local workerd (SQLite Durable Objects on disk),
 * through the worker's own code: exposures one request each, as pages write them; outcomes in
 * the queue consumer's batches of 100, split by shard; verified purchases. And what a visitor
 * costs a shard's storage, measured in one shard. Prints what it measured (README, "Experiment
 * results: what is counted", and worker/experiments/visitor-shard.ts, which sizes the shard
 * count from it); proves the counts stay exact at volume.
 */

const VISITORS = 2000;
const CONCURRENCY = 50;
const BATCH = 100;

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

function visitorId(n: number) {
  return `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
}

function exposureOf(id: string, n: number): Exposure {
  return {
    visitorId: id,
    phase: 1,
    variant: n % 2 ? 'lp17' : 'default',
    configVersion: 'v1+v1',
    at: n,
    // As a visitor of the default route from a Meta ad.
    route: 'default',
    source: 'meta',
  };
}

it(`writes ${VISITORS} exposures, their outcomes and purchases exactly, and reports the rate`, {
  timeout: 120_000,
}, async () => {
  const ids = Array.from({ length: VISITORS }, (_, n) => visitorId(n));
  const exposures = ids.map(exposureOf);

  // As pages write them: one request per visitor, CONCURRENCY at a time.
  const single = exposures.slice(0, VISITORS / 2);
  let started = performance.now();
  for (let from = 0; from < single.length; from += CONCURRENCY) {
    await Promise.all(
      single.slice(from, from + CONCURRENCY).map((exposure) => recordExposures(stores, [exposure])),
    );
  }
  const singleMs = performance.now() - started;

  // BATCH visitors at a time, one request per shard they live in.
  const batched = exposures.slice(VISITORS / 2);
  started = performance.now();
  for (let from = 0; from < batched.length; from += BATCH) {
    await recordExposures(stores, batched.slice(from, from + BATCH));
  }
  const batchedMs = performance.now() - started;
  // Some visitors again: none is exposed twice.
  await recordExposures(stores, exposures.slice(0, BATCH));

  const outcomes: Outcome[] = ids.flatMap((id) => [
    { visitorId: id, event: 'onboarding_start' as const },
    { visitorId: id, event: 'lead' as const },
    { visitorId: id, event: 'checkout_screen_load' as const },
  ]);
  started = performance.now();
  for (let from = 0; from < outcomes.length; from += BATCH) {
    await recordOutcomes(stores, outcomes.slice(from, from + BATCH));
  }
  const outcomeMs = performance.now() - started;

  // The whole consumer on batches of 100 step events: local store, deliveries and the flags.
  const messages = ids
    .slice(0, 1000)
    .map((id) => aMessage(anEvent({ event_type: 'lead', device_id: id }), { visitor_id: id }));
  started = performance.now();
  for (let from = 0; from < messages.length; from += BATCH) {
    await consumer().run(asDeliveries(messages.slice(from, from + BATCH)));
  }
  const consumerMs = performance.now() - started;

  const buyers = ids.filter((_, n) => n % 5 === 0);
  started = performance.now();
  for (const [n, id] of buyers.entries()) {
    await recordPurchases(stores, [
      { subscriptionId: `sub_${n}`, visitorId: id, amountMinor: 699, currency: 'USD', at: 1 },
    ]);
  }
  const purchaseMs = performance.now() - started;

  const totals = await totalsOf(1);
  const half = VISITORS / 2;
  for (const arm of totals.arms) {
    expect(arm).toMatchObject({
      exposed: half,
      steps: { lookup: half, signup: half, checkout: half, purchase: buyers.length / 2 },
      purchases: buyers.length / 2,
    });
    expect(arm.revenue.USD).toMatchObject({
      purchasers: buyers.length / 2,
      sum: (699 * buyers.length) / 2,
    });
  }

  vi.restoreAllMocks();
  console.log(
    JSON.stringify({
      experiment_shard_write_rate: {
        exposures_per_s: perSecond(single.length, singleMs),
        batched_exposures_per_s: perSecond(batched.length, batchedMs),
        outcome_updates_per_s: perSecond(outcomes.length, outcomeMs),
        consumer_events_per_s: perSecond(messages.length, consumerMs),
        verified_purchases_per_s: perSecond(buyers.length, purchaseMs),
      },
    }),
  );
});

const IN_ONE_SHARD = 20_000;

it(`measures what a visitor costs a shard's storage, over ${IN_ONE_SHARD} visitors in one`, {
  timeout: 120_000,
}, async () => {
  const shard = shardStub(stores, 0);
  const sizeBefore = await shard.databaseSize();
  const ids = Array.from({ length: IN_ONE_SHARD }, () => crypto.randomUUID());
  for (let from = 0; from < ids.length; from += 500) {
    const chunk = ids.slice(from, from + 500);
    // Spread over 60 days, as a running experiment's visitors are; each a first visit on their
    // route (route_days), written with the exposure as the worker writes it.
    const exposures = chunk.map((id, n) => ({
      ...exposureOf(id, from + n),
      at: (from + n) * 259_200,
    }));
    await shard.recordExposures(
      exposures,
      exposures.map(({ visitorId, route, at }) => ({ visitorId, route: route ?? 'default', at })),
    );
    // A funnel's shape: 60% start the lookup, 30% sign up, 25% reach checkout, 5% buy.
    await shard.recordOutcomes(
      chunk.flatMap((id, n): Outcome[] => [
        ...(n % 10 < 6 ? [{ visitorId: id, event: 'onboarding_start' as const }] : []),
        ...(n % 10 < 3 ? [{ visitorId: id, event: 'lead' as const }] : []),
        ...(n % 20 < 5 ? [{ visitorId: id, event: 'checkout_screen_load' as const }] : []),
      ]),
    );
    await shard.recordPurchases(
      chunk
        .filter((_, n) => n % 20 === 0)
        .map(
          (id): ExperimentPurchase => ({
            subscriptionId: `sub_${crypto.randomUUID()}`,
            visitorId: id,
            amountMinor: 699,
            currency: 'USD',
            at: 1,
          }),
        ),
    );
  }
  const bytesPerVisitor = ((await shard.databaseSize()) - sizeBefore) / IN_ONE_SHARD;
  expect(bytesPerVisitor).toBeGreaterThan(0);
  vi.restoreAllMocks();
  console.log(
    JSON.stringify({
      experiment_shard_storage: { bytes_per_visitor: Math.round(bytesPerVisitor) },
    }),
  );
});
