import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { beforeEach, expect, it } from 'vitest';
import { experimentDays } from '../../../worker/experiments/results/experiment-days';
import { experimentTotals } from '../../../worker/experiments/results/totals';
import { minorAmountOf } from '../../../worker/experiments/store/experiment-purchase';
import {
  legacyResults,
  readResults,
  runOnLegacy,
} from '../../../worker/experiments/store/experiment-stores';
import type { Outcome } from '../../../worker/experiments/store/outcomes';
import {
  botStatement,
  exposureStatement,
  outcomeStatements,
  purchaseStatements,
} from '../../../worker/experiments/store/split-statements';
import { EXPERIMENT_TABLES, stores } from './experiment-fixtures';

/**
 * The counts by exposure day (0004_experiment_days.sql) that the lift over days adds up: kept by
 * triggers beside the per-arm totals, they must always add up to them exactly, and the
 * migration's backfill of visitors exposed before it must give what the triggers give. Written
 * to EVENTS_DB, where the migration ran, with the statements the shards run on the same schema
 * (test/worker/experiments/experiment-shard.test.ts compares the two).
 */

const db = env.EVENTS_DB;
const TABLES = [...EXPERIMENT_TABLES, 'verified_purchases'];
const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2026, 10, 20, 23, 59, 59);

const emptyTables = () => db.batch(TABLES.map((table) => db.prepare(`DELETE FROM ${table}`)));
beforeEach(emptyTables);

/** EVENTS_DB's counts by day of a phase, as the results read them. */
const daysOf = async (phase: number) => experimentDays((await legacyResults(db, phase)).rows);

let visitors = 0;
async function expose(variant: string, phase: number, at: number): Promise<string> {
  visitors += 1;
  const visitorId = `00000000-0000-4000-8000-${visitors.toString().padStart(12, '0')}`;
  await runOnLegacy(db, [
    exposureStatement([
      { visitorId, phase, variant, configVersion: 'v1+v1', at, route: 'default', source: 'direct' },
    ]),
  ]);
  return visitorId;
}

const recordOutcomes = (outcomes: readonly Outcome[]) =>
  runOnLegacy(db, outcomeStatements(outcomes));

async function purchase(visitorId: string, amount: number | null, currency: string) {
  const minor = minorAmountOf(amount, currency);
  await runOnLegacy(
    db,
    purchaseStatements([
      {
        subscriptionId: crypto.randomUUID(),
        visitorId,
        amountMinor: minor?.amountMinor ?? null,
        currency: minor?.currency ?? null,
        at: 1,
      },
    ]),
  );
}

/** The days of a phase added up per variant, as experimentTotals gives the phase. */
async function daysAddedUp(phase: number) {
  const { arms, revenue } = await daysOf(phase);
  const variants = [...new Set(arms.map((arm) => arm.variant))].sort();
  return variants.map((variant) => {
    const own = arms.filter((arm) => arm.variant === variant);
    const histograms = new Map<string, Map<number, number>>();
    for (const bucket of revenue.filter((b) => b.variant === variant)) {
      const histogram = histograms.get(bucket.currency) ?? new Map<number, number>();
      histogram.set(
        bucket.revenueMinor,
        (histogram.get(bucket.revenueMinor) ?? 0) + bucket.visitors,
      );
      histograms.set(bucket.currency, histogram);
    }
    return {
      variant,
      exposed: own.reduce((sum, arm) => sum + arm.exposed, 0),
      steps: Object.fromEntries(
        (['lookup', 'signup', 'checkout', 'purchase'] as const).map((step) => [
          step,
          own.reduce((sum, arm) => sum + arm.steps[step], 0),
        ]),
      ),
      histograms: Object.fromEntries(
        [...histograms]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([currency, buckets]) => [
            currency,
            [...buckets]
              .sort(([a], [b]) => a - b)
              .map(([revenueMinor, count]) => ({ revenueMinor, visitors: count })),
          ]),
      ),
    };
  });
}

async function totalsOf(phase: number) {
  const totals = experimentTotals(phase, (await legacyResults(db, phase)).rows);
  return totals.arms
    .filter((arm) => arm.exposed > 0)
    .map((arm) => ({
      variant: arm.variant,
      exposed: arm.exposed,
      steps: arm.steps,
      histograms: Object.fromEntries(
        Object.entries(arm.revenue).map(([currency, { histogram }]) => [currency, histogram]),
      ),
    }));
}

async function dayTables() {
  const days = await db.prepare('SELECT * FROM experiment_days ORDER BY 1, 2, 3').all();
  const revenue = await db
    .prepare('SELECT * FROM experiment_day_revenue WHERE visitors > 0 ORDER BY 1, 2, 3, 4, 5')
    .all();
  return { days: days.results, revenue: revenue.results };
}

/** 0004 again on the rows there are: its tables and triggers dropped, its statements run. */
async function migrateAgain() {
  await db.batch(
    [
      'DROP TRIGGER exposure_counted_by_day',
      'DROP TRIGGER exposure_outcome_counted_by_day',
      'DROP TRIGGER experiment_purchase_counted_by_day',
      'DROP TABLE experiment_days',
      'DROP TABLE experiment_day_revenue',
    ].map((sql) => db.prepare(sql)),
  );
  const migration = env.EVENTS_MIGRATIONS.find((m) => m.name.startsWith('0004_'));
  expect(migration).toBeDefined();
  await db.batch((migration?.queries ?? []).map((sql) => db.prepare(sql)));
}

it('counts each visitor on the UTC day of their exposure, with what they did since', async () => {
  const early = await expose('lp17', 1, START);
  await expose('lp17', 1, START + 2000);
  await expose('default', 1, START + 1000);
  await runOnLegacy(db, [botStatement({ phase: 1, variant: 'lp17' })]);
  // The early visitor signs up and buys after midnight: it counts on their exposure's day.
  await recordOutcomes([{ visitorId: early, event: 'lead', at: Date.now() }]);
  await purchase(early, 6.99, 'USD');

  const days = await daysOf(1);
  expect(days.startedAt).toBe(START);
  // A second before midnight, UTC, and the first two seconds after it.
  expect(days.arms).toEqual([
    {
      day: '2026-11-20',
      variant: 'lp17',
      exposed: 1,
      steps: { lookup: 0, signup: 1, checkout: 0, purchase: 1 },
    },
    {
      day: '2026-11-21',
      variant: 'default',
      exposed: 1,
      steps: { lookup: 0, signup: 0, checkout: 0, purchase: 0 },
    },
    {
      day: '2026-11-21',
      variant: 'lp17',
      exposed: 1,
      steps: { lookup: 0, signup: 0, checkout: 0, purchase: 0 },
    },
  ]);
  expect(days.revenue).toEqual([
    { day: '2026-11-20', variant: 'lp17', currency: 'USD', revenueMinor: 699, visitors: 1 },
  ]);
  expect(await daysOf(2)).toEqual({ arms: [], revenue: [], startedAt: null });
});

it('lists the phases anyone was exposed in, newest first, bots aside', async () => {
  await expose('default', 1, START);
  await expose('default', 3, START);
  await runOnLegacy(db, [botStatement({ phase: 4, variant: 'default' })]);
  expect((await readResults(stores, 1)).phases).toEqual([3, 1]);
});

const EVENTS: Outcome['event'][] = ['onboarding_start', 'lead', 'checkout_screen_load'];
const PRICES = [0, 2.99, 6.99, 9.99, 39.99, null];

it('the days always add up to the phase’s totals, and the backfill gives what the triggers keep', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          variant: fc.constantFrom('default', 'lp17', 'lp11ch8/vc'),
          phase: fc.integer({ min: 1, max: 2 }),
          day: fc.integer({ min: 0, max: 3 }),
          steps: fc.subarray(EVENTS),
          purchases: fc.array(
            fc.record({
              price: fc.constantFrom(...PRICES),
              currency: fc.constantFrom('USD', 'EUR'),
            }),
            { maxLength: 3 },
          ),
        }),
        { minLength: 1, maxLength: 25 },
      ),
      async (plans) => {
        await emptyTables();
        const outcomes: Outcome[] = [];
        for (const plan of plans) {
          const visitorId = await expose(plan.variant, plan.phase, START + plan.day * DAY);
          for (const event of plan.steps) outcomes.push({ visitorId, event, at: Date.now() });
          for (const { price, currency } of plan.purchases) {
            await purchase(visitorId, price, currency);
          }
        }
        await recordOutcomes(outcomes);
        await recordOutcomes(outcomes);
        for (const phase of [1, 2]) {
          expect(await daysAddedUp(phase)).toEqual(await totalsOf(phase));
        }
        const kept = await dayTables();
        await migrateAgain();
        expect(await dayTables()).toEqual(kept);
      },
    ),
    { numRuns: 25, seed: 14 },
  );
});
