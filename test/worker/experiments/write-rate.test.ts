import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { experimentPurchaseStatement } from '../../../worker/experiments/experiment-purchase';
import { type Exposure, recordExposures } from '../../../worker/experiments/exposure-store';
import { type Outcome, recordOutcomes } from '../../../worker/experiments/outcomes';
import { experimentTotals } from '../../../worker/experiments/totals';
import { asDeliveries, consumer } from '../collector/consume';
import { aMessage, anEvent } from '../collector/fixtures';

/**
 * The write rate of the experiment's store in local D1 (workerd, SQLite on disk), through the
 * worker's own code: exposures one statement each, as pages write them; outcomes in the queue
 * consumer's batches of 100. Prints what it measured (README, "Experiment results: production");
 * proves the counts stay exact at volume.
 */

const VISITORS = 2000;
const CONCURRENCY = 50;
const BATCH = 100;
const db = env.EVENTS_DB;

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

/** The database's size in bytes, as D1 reports it after a write. */
async function databaseSize(): Promise<number> {
  const result = await db.prepare('DELETE FROM exposures WHERE 0').run();
  return result.meta.size_after;
}

function visitorId(n: number) {
  return `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
}

it(`writes ${VISITORS} exposures, their outcomes and purchases exactly, and reports the rate`, async () => {
  const ids = Array.from({ length: VISITORS }, (_, n) => visitorId(n));
  const exposures: Exposure[] = ids.map((id, n) => ({
    visitorId: id,
    phase: 1,
    variant: n % 2 ? 'lp17' : 'default',
    configVersion: 'v1+v1',
    at: n,
  }));

  const sizeBefore = await databaseSize();
  // As pages write them: one statement per visitor, CONCURRENCY at a time.
  const single = exposures.slice(0, VISITORS / 2);
  let started = performance.now();
  for (let from = 0; from < single.length; from += CONCURRENCY) {
    await Promise.all(
      single.slice(from, from + CONCURRENCY).map((exposure) => recordExposures(db, [exposure])),
    );
  }
  const singleMs = performance.now() - started;

  // As a queue consumer would: BATCH visitors per statement.
  const batched = exposures.slice(VISITORS / 2);
  started = performance.now();
  for (let from = 0; from < batched.length; from += BATCH) {
    await recordExposures(db, batched.slice(from, from + BATCH));
  }
  const batchedMs = performance.now() - started;
  const bytesPerExposure = (await databaseSize()) - sizeBefore;
  // Some visitors again: none is exposed twice.
  await recordExposures(db, exposures.slice(0, BATCH));

  const outcomes: Outcome[] = ids.flatMap((id) => [
    { visitorId: id, event: 'onboarding_start' as const },
    { visitorId: id, event: 'lead' as const },
    { visitorId: id, event: 'checkout_screen_load' as const },
  ]);
  started = performance.now();
  for (let from = 0; from < outcomes.length; from += BATCH) {
    await recordOutcomes(db, outcomes.slice(from, from + BATCH));
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
    const subscriptionId = `sub_${n}`;
    await db.batch([
      db
        .prepare(
          'INSERT INTO verified_purchases (subscription_id, insert_id, recorded_at) VALUES (?1, ?2, 1)',
        )
        .bind(subscriptionId, `claim_${n}`),
      experimentPurchaseStatement(db, {
        charge: {
          subscriptionId,
          eventId: subscriptionId,
          amount: 6.99,
          currency: 'USD',
          planId: null,
        },
        visitorId: id,
        claimId: `claim_${n}`,
        at: 1,
      }),
    ]);
  }
  const purchaseMs = performance.now() - started;

  const totals = await experimentTotals(db, 1);
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
      experiment_write_rate: {
        exposures_per_s: perSecond(single.length, singleMs),
        batched_exposures_per_s: perSecond(batched.length, batchedMs),
        outcome_updates_per_s: perSecond(outcomes.length, outcomeMs),
        consumer_events_per_s: perSecond(messages.length, consumerMs),
        verified_purchases_per_s: perSecond(buyers.length, purchaseMs),
        bytes_per_exposure: Math.round(bytesPerExposure / VISITORS),
      },
    }),
  );
});
