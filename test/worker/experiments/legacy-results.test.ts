import { env } from 'cloudflare:workers';
import { beforeEach, expect, it } from 'vitest';
import type { ResultsAnswer } from '../../../shared/console-api/results';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import { experimentDays } from '../../../worker/experiments/results/experiment-days';
import { buildResults, designOf } from '../../../worker/experiments/results/split-answer';
import { experimentTotals } from '../../../worker/experiments/results/totals';
import { legacyResults } from '../../../worker/experiments/store/experiment-stores';
import { asDeliveries, consumer } from '../collector/consume';
import { anEvent, aPurchase, aSeenStep, aServerMessage, NOW } from '../collector/fixtures';
import { freshApp } from '../fetch-app';
import {
  aBrowser,
  exposureOf,
  exposureRows,
  startEachTestAfresh,
  TWO_WAY,
} from './experiment-fixtures';

/**
 * A deployed EVENTS_DB already holds a running experiment's visitors, written before the shards
 * existed. Its rows stay where they are and the results add them to the shards': the answer is
 * the one EVENTS_DB alone gave, and those visitors' later steps and purchases still count.
 */

startEachTestAfresh();

const DAY = 24 * 60 * 60 * 1000;
const db = env.EVENTS_DB;
const consoleApp = freshApp({ now: () => NOW });

/** Visitor `n` of the deployed database. */
const legacyVisitor = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;

/**
 * The experiment as the worker wrote it into EVENTS_DB before the shards (its SQL then, written
 * out): two phases, three days, steps, purchases in two currencies with their claims, and bots.
 */
async function seedDeployedDatabase() {
  const statements: D1PreparedStatement[] = [db.prepare('DELETE FROM verified_purchases')];
  for (let n = 0; n < 60; n++) {
    const phase = n < 40 ? 1 : 2;
    const variant = n % 2 === 0 ? 'default' : 'lp17';
    const at = NOW - (n % 3) * DAY - n * 1000;
    statements.push(
      db
        .prepare(
          `INSERT INTO exposures (visitor_id, phase, variant, config_version, exposed_at)
           VALUES (?1, ?2, ?3, 'v1+v1', ?4) ON CONFLICT (visitor_id) DO NOTHING`,
        )
        .bind(legacyVisitor(n), phase, variant, at),
    );
  }
  for (let n = 0; n < 60; n += 2) {
    statements.push(
      db
        .prepare(
          'UPDATE exposures SET reached_lookup = 1 WHERE visitor_id = ?1 AND reached_lookup = 0',
        )
        .bind(legacyVisitor(n)),
    );
  }
  for (let n = 1; n < 60; n += 3) {
    statements.push(
      db
        .prepare('UPDATE exposures SET signed_up = 1 WHERE visitor_id = ?1 AND signed_up = 0')
        .bind(legacyVisitor(n)),
    );
  }
  const purchases: [number, number | null, string | null][] = [
    [1, 699, 'USD'],
    [1, 1999, 'USD'],
    [4, 699, 'USD'],
    [7, 3999, 'EUR'],
    [10, null, null],
    [13, 699, 'USD'],
    [45, 5999, 'USD'],
    [46, 699, 'USD'],
  ];
  for (const [i, [n, amount, currency]] of purchases.entries()) {
    const subscription = `sub_legacy_${i}`;
    statements.push(
      db
        .prepare(
          'INSERT INTO verified_purchases (subscription_id, insert_id, recorded_at) VALUES (?1, ?2, ?3)',
        )
        .bind(subscription, `srv_${i}`, NOW),
      db
        .prepare(
          `INSERT OR IGNORE INTO experiment_purchases
             (subscription_id, visitor_id, phase, variant, amount_minor, currency, recorded_at)
           SELECT ?1, visitor_id, phase, variant, ?3, ?4, ?5 FROM exposures
           WHERE visitor_id = ?2 AND EXISTS (
             SELECT 1 FROM verified_purchases WHERE subscription_id = ?1 AND insert_id = ?6
           )`,
        )
        .bind(subscription, legacyVisitor(n), amount, currency, NOW, `srv_${i}`),
    );
  }
  for (const [phase, variant] of [
    [1, 'lp17'],
    [1, 'lp17'],
    [2, 'default'],
  ] as const) {
    statements.push(
      db
        .prepare(
          `INSERT INTO experiment_arms (phase, variant, bots) VALUES (?1, ?2, 1)
           ON CONFLICT (phase, variant) DO UPDATE SET bots = bots + 1`,
        )
        .bind(phase, variant),
    );
  }
  await db.batch(statements);
}

/** The answer as the route gave it before the shards: EVENTS_DB's tables alone. */
async function answerFromEventsDbAlone(phase: number): Promise<ResultsAnswer> {
  const { rows, phases } = await legacyResults(db, phase);
  const answer = buildResults({
    phase,
    phases,
    configVersion: 'v1+builtin',
    design: designOf(TWO_WAY),
    totals: experimentTotals(phase, rows),
    days: experimentDays(rows),
  });
  // Through JSON, as the route sends it.
  return JSON.parse(JSON.stringify(answer));
}

async function answerNow(phase: number): Promise<ResultsAnswer> {
  const response = await consoleApp(`${CONSOLE_RESULTS_PATH}?phase=${phase}`);
  expect(response.status).toBe(200);
  return response.json();
}

beforeEach(seedDeployedDatabase);

it('gives the same results JSON as the deployed database did, phase by phase', async () => {
  for (const phase of [1, 2]) {
    const before = await answerFromEventsDbAlone(phase);
    expect(before.variants.map((v) => v.exposed)).toEqual(phase === 1 ? [20, 20] : [10, 10]);
    expect(await answerNow(phase)).toEqual(before);
  }
});

it('counts a deployed visitor’s later step and purchase, and a new visitor’s exposure', async () => {
  const before = await answerNow(1);
  const returning = legacyVisitor(3);
  // A step the worker saw, and a purchase the server verified, through the consumer.
  await consumer().run(
    asDeliveries([
      aSeenStep(anEvent({ event_type: 'checkout_screen_load', device_id: returning }), {
        visitor_id: returning,
      }),
      aServerMessage(
        aPurchase({ price: 19.99, currency: 'USD', sub_id: 'sub_after' }, { device_id: returning }),
      ),
    ]),
  );
  // A new visitor drawn lp17 on the first screen.
  const newcomer = aBrowser(freshApp({ random: () => 0.8, now: () => NOW }));
  await newcomer.get('/');
  expect(await exposureOf(newcomer.visitorId())).toMatchObject({ variant: 'lp17' });

  const after = await answerNow(1);
  const arm = (answer: ResultsAnswer, variant: string) =>
    answer.variants.find((v) => v.variant === variant);
  const count = (answer: ResultsAnswer, metric: string) =>
    arm(answer, 'lp17')?.metrics.find((m) => m.metric === metric)?.count ?? 0;
  expect(arm(after, 'lp17')?.exposed).toBe((arm(before, 'lp17')?.exposed ?? 0) + 1);
  expect(count(after, 'checkout')).toBe(count(before, 'checkout') + 1);
  expect(count(after, 'purchase')).toBe(count(before, 'purchase') + 1);
  expect(count(after, 'revenue')).toBe(count(before, 'revenue') + 1);
  expect(arm(after, 'default')).toEqual(arm(before, 'default'));
});

it('a deployed visitor drawn again (their gf_variant cookie gone) is not exposed twice', async () => {
  const returning = legacyVisitor(5);
  const browser = aBrowser(
    freshApp({ random: () => 0.2, now: () => NOW }),
    new Map([['userUuid', returning]]),
  );
  await browser.get('/');
  expect(browser.variant()).toBe('default');
  expect(await exposureRows()).toEqual([]);
  expect(await answerNow(1)).toEqual(await answerFromEventsDbAlone(1));
});
