import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { RouteVisitsAnswer } from '../../../shared/console-api/routes';
import {
  shardOfVisitor,
  VISITOR_ROWS_KEPT_MS,
} from '../../../worker/experiments/assignment/assign';
import { shardStub } from '../../../worker/experiments/store/experiment-stores';
import { recordOutcomes } from '../../../worker/experiments/store/record-outcomes';
import { asDeliveries, consumer } from '../collector/consume';
import {
  aMessage,
  anEvent,
  aPurchase,
  aSeenStep,
  aServerMessage,
  NOW,
} from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp } from '../fetch-app';
import { checkoutVisitor } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';
import {
  CHROME,
  countedShards,
  shardRows,
  startEachTestAfresh,
  stores,
} from './experiment-fixtures';

/**
 * The funnel steps each route's visitors reached, by UTC day (route_step_days): counted from the
 * steps the worker saw and verified purchases the queue consumer already sends each visitor's shard,
 * in the same request, exposed to an experiment or not; the console's duration estimate reads
 * the last 7 days of them from GET /console/api/route-visits.
 */

startEachTestAfresh();

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A step the worker saw the visitor take (worker/collector/seen-steps.ts), carrying the route
 * it kept for them, as it queues it: for the experiments alone.
 */
function step(
  visitorId: string,
  eventType: CollectedEvent['event_type'],
  route?: unknown,
  time = NOW - 1000,
) {
  const properties = { screen_name: 'one_pager', ...(route === undefined ? {} : { route }) };
  return aSeenStep(
    anEvent({
      event_type: eventType,
      device_id: visitorId,
      time,
      event_properties: properties as CollectedEvent['event_properties'],
    }),
    { visitor_id: visitorId },
  );
}

/** Every shard's route_step_days added, by route, day and step. */
async function stepDays() {
  const rows = await shardRows<{ route: string; day: string; step: string; reached: number }>(
    'SELECT route, day, step, reached FROM route_step_days',
  );
  const added = new Map<string, { route: string; day: string; step: string; reached: number }>();
  for (const row of rows) {
    const key = `${row.route} ${row.day} ${row.step}`;
    added.set(key, { ...row, reached: row.reached + (added.get(key)?.reached ?? 0) });
  }
  return [...added.values()].sort(
    (a, b) =>
      a.route.localeCompare(b.route) || a.day.localeCompare(b.day) || a.step.localeCompare(b.step),
  );
}

const [ana, ben, cleo] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];

/** Ana and Ben on route tiktok, Cleo on default; Ana buys, then takes the upsell. */
const TWO_ROUTES = [
  step(ana, 'onboarding_start', 'tiktok'),
  step(ana, 'lead', 'tiktok'),
  step(ana, 'checkout_screen_load', 'tiktok'),
  // She reloads the paywall: one visitor, one step, within the batch.
  step(ana, 'checkout_screen_load', 'tiktok'),
  step(ben, 'onboarding_start', 'tiktok'),
  // Ben's lookup the evening before (UTC).
  step(ben, 'onboarding_start', 'tiktok', Date.UTC(2026, 10, 21, 23, 0, 0)),
  step(cleo, 'onboarding_start', 'default'),
  step(cleo, 'checkout_screen_load', 'default'),
  // A declined payment is no step.
  step(cleo, 'subs_purchase_failed', 'default'),
  aServerMessage(aPurchase({ route: 'tiktok', sub_id: 'sub_ana' }, { device_id: ana })),
  // Her upsell is past the upsell screen: no step.
  aServerMessage(
    aPurchase(
      { route: 'tiktok', sub_id: 'sub_ana_upsell', plan: 'upsell_monthly_999', price: 9.99 },
      { device_id: ana, event_type: 'upsell_purchase_completed' },
    ),
  ),
];

describe('steps by route, through the queue consumer', () => {
  it('counts each route’s steps by UTC day in the request that sets the flags, none of its own', async () => {
    const { shards, calls } = countedShards();
    const { acked } = await consumer({ EXPERIMENT_SHARDS: shards }).run(asDeliveries(TWO_ROUTES));
    expect(acked).toHaveLength(TWO_ROUTES.length);
    expect(await stepDays()).toEqual([
      { route: 'default', day: '2026-11-22', step: 'lookup', reached: 1 },
      { route: 'default', day: '2026-11-22', step: 'paywall', reached: 1 },
      { route: 'tiktok', day: '2026-11-21', step: 'lookup', reached: 1 },
      { route: 'tiktok', day: '2026-11-22', step: 'lookup', reached: 2 },
      { route: 'tiktok', day: '2026-11-22', step: 'paywall', reached: 1 },
      { route: 'tiktok', day: '2026-11-22', step: 'signup', reached: 1 },
      { route: 'tiktok', day: '2026-11-22', step: 'upsell', reached: 1 },
    ]);
    // As before the counts: one outcomes request per shard the visitors live in, one purchases
    // request for Ana's shard.
    const shardsOf = new Set([ana, ben, cleo].map(shardOfVisitor));
    expect(calls.filter((call) => call === 'recordOutcomes')).toHaveLength(shardsOf.size);
    expect(calls.filter((call) => call === 'recordPurchases')).toHaveLength(1);
    expect(calls).toHaveLength(shardsOf.size + 1);
  });

  it('counts nothing without a route, with one no route id could be, dated a week before it arrived, or sent by a page', async () => {
    await consumer().run(
      asDeliveries([
        step(ana, 'onboarding_start'),
        step(ana, 'onboarding_start', 'Not a route!'),
        step(ana, 'lead', 42),
        step(ana, 'lead', 'x'.repeat(49)),
        step(ana, 'checkout_screen_load', 'tiktok', NOW - 8 * DAY_MS),
        // A page's own step, posted with Ana's cookie (naming Ben, or Ana): no one's step.
        aMessage(
          anEvent({
            event_type: 'onboarding_start',
            device_id: ben,
            event_properties: { screen_name: 'one_pager', route: 'tiktok' },
          }),
          { visitor_id: ana },
        ),
        aMessage(
          anEvent({
            event_type: 'onboarding_start',
            device_id: ana,
            event_properties: { screen_name: 'one_pager', route: 'tiktok' },
          }),
          { visitor_id: ana },
        ),
        // A purchase anyone may post to /e: only the server's verified ones count.
        aMessage(aPurchase({ route: 'tiktok', sub_id: 'sub_forged' }, { device_id: ana }), {
          visitor_id: ana,
        }),
      ]),
    );
    expect(await stepDays()).toEqual([]);
  });

  it('a verified purchase counts its buyer at the upsell on the route they walked', async () => {
    const queue = recordingQueue();
    const visitor = checkoutVisitor({ queue: queue.queue });
    await visitor.call('/', undefined, { 'user-agent': CHROME });
    await visitor.signUp();
    const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
    expect((await visitor.poll(started))[0]?.status).toBe('succeeded');
    await consumer().run(asDeliveries(queue.sent));
    expect(await stepDays()).toEqual([
      { route: 'default', day: expect.any(String), step: 'upsell', reached: 1 },
    ]);
  });
});

describe('GET /console/api/route-visits', () => {
  it('adds every shard’s steps by route over today and the 6 days before', async () => {
    const eightDaysAgo = (message: ReturnType<typeof step>) => ({
      ...message,
      context: { ...message.context, received_at: NOW - 7 * DAY_MS },
    });
    await consumer().run(
      asDeliveries([
        ...TWO_ROUTES,
        // Received on the day before the week: left out.
        eightDaysAgo(step(cleo, 'lead', 'default', NOW - 7 * DAY_MS - 1000)),
      ]),
    );
    const answer: RouteVisitsAnswer = await (
      await freshApp({ now: () => NOW })(CONSOLE_API.routeVisits)
    ).json();
    expect(answer).toEqual({
      days: 7,
      visits: {},
      total: 0,
      steps: {
        tiktok: { lookup: 3, signup: 1, paywall: 1, upsell: 1 },
        default: { lookup: 1, signup: 0, paywall: 1, upsell: 0 },
      },
    });
  });
});

it('a shard’s retention deletes days of steps older than the visitor rows it keeps', async () => {
  const now = Date.now();
  const shard = shardStub(stores, shardOfVisitor(ana));
  await runInDurableObject(shard, (_object, state) => state.storage.deleteAlarm());
  const outcome = { visitorId: ana, event: 'lead' as const, route: 'tiktok' };
  await recordOutcomes(stores, [{ ...outcome, at: now }]);
  await recordOutcomes(stores, [{ ...outcome, at: now - VISITOR_ROWS_KEPT_MS - DAY_MS }]);
  const days = () =>
    runInDurableObject(shard, (_object, state) =>
      state.storage.sql.exec('SELECT day FROM route_step_days').toArray(),
    );
  expect(await days()).toHaveLength(2);
  // Counting the steps scheduled the shard's retention alarm.
  expect(await runDurableObjectAlarm(shard)).toBe(true);
  expect(await days()).toEqual([{ day: new Date(now).toISOString().slice(0, 10) }]);
});
