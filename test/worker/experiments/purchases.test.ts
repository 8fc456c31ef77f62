import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ALERTS_CRON, scheduled } from '../../../worker/scheduled';
import { asDeliveries, consumer } from '../collector/consume';
import { aPurchase } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { checkoutVisitor } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';
import {
  CHROME,
  exposureOf,
  funnel,
  NO_FLAGS,
  shardRows,
  startEachTestAfresh,
  totalsOf,
} from './experiment-fixtures';

/**
 * Purchases and revenue per exposed visitor: only from the purchases the server
 * verified with the product API, once per subscription however often it is polled; a purchase
 * anyone posts to `/e` is neither.
 */

startEachTestAfresh();

describe('purchases and revenue', () => {
  it('a purchase posted to /e, with a price and `source: server`, is never a purchase or revenue', async () => {
    const { exposedVisitor, track, consume } = funnel();
    const visitor = await exposedVisitor();
    const id = visitor.visitorId() ?? '';
    await track(visitor, [
      aPurchase({ price: 4999, currency: 'USD', source: 'server' }, { device_id: id }),
      aPurchase(
        { price: 9.99, currency: 'EUR' },
        { device_id: id, event_type: 'upsell_purchase_completed' },
      ),
    ]);
    await consume();
    expect(await exposureOf(id)).toMatchObject(NO_FLAGS);
    const totals = await totalsOf(1);
    expect(totals).toMatchObject({ mainCurrency: null, revenueCap: null });
    expect(totals.arms[0]).toMatchObject({ purchases: 0, revenue: {} });
    expect(totals.arms[0]?.metrics.revenue).toEqual({ n: 1, sum: 0, sumSquares: 0, nonZero: 0 });
  });

  it('a verified purchase counts once however often it is polled, a second one adds to the visitor', async () => {
    const queue = recordingQueue();
    const visitor = checkoutVisitor({ queue: queue.queue });
    await visitor.call('/', undefined, { 'user-agent': CHROME });
    const exposed = await exposureOf(visitor.visitorId);
    expect(exposed).toMatchObject(NO_FLAGS);

    await visitor.signUp();
    const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
    const polls = await visitor.poll(started, 5);
    expect(polls.every((result) => result?.status === 'succeeded')).toBe(true);
    // Each poll that saw the success queued a message of its own; the queue consumer claims the
    // subscription for the first, and its experiment destination counts that one alone.
    expect(queue.sent).toHaveLength(5);
    await consumer().run(asDeliveries(queue.sent));
    // The queue delivering it again counts nothing more.
    await consumer().run(asDeliveries(queue.sent, 2));
    expect(await exposureOf(visitor.visitorId)).toMatchObject({ ...NO_FLAGS, purchased: 1 });
    let totals = await totalsOf(1);
    expect(totals).toMatchObject({ mainCurrency: 'USD', revenueCap: 699 });
    expect(totals.arms).toEqual([
      expect.objectContaining({
        variant: exposed?.variant,
        exposed: 1,
        purchases: 1,
        unpricedPurchases: 0,
        steps: { lookup: 0, signup: 0, checkout: 0, purchase: 1 },
        revenue: {
          USD: {
            purchasers: 1,
            sum: 699,
            sumSquares: 699 * 699,
            histogram: [{ revenueMinor: 699, visitors: 1 }],
          },
        },
      }),
    ]);

    // An upsell on the card on file (9.99 less its 30 %): the same visitor, now 13.98 in all. A
    // plan is bought once (its purchase's attempt ledger), so the second purchase is another plan.
    const upsell = await visitor.subscribe(
      null,
      crypto.randomUUID(),
      'upsell_monthly_999_usd',
      {
        price: '9.99',
        currency: 'USD',
      },
      'upsell_30',
    );
    expect((await visitor.poll(upsell))[0]?.status).toBe('succeeded');
    await consumer().run(asDeliveries(queue.sent.slice(5)));
    totals = await totalsOf(1);
    expect(totals.arms[0]).toMatchObject({
      purchases: 2,
      steps: { purchase: 1 },
      revenue: {
        USD: { purchasers: 1, sum: 1398, histogram: [{ revenueMinor: 1398, visitors: 1 }] },
      },
      metrics: {
        purchase: { n: 1, sum: 1, sumSquares: 1, nonZero: 1 },
        revenue: { n: 1, sum: 1398, sumSquares: 1398 ** 2, nonZero: 1 },
      },
    });
  });

  it('a purchase the queue refused is kept for the sweep, and counts once with the later polls', async () => {
    const queue = recordingQueue({ failCalls: [0] });
    const visitor = checkoutVisitor({ queue: queue.queue });
    await visitor.call('/', undefined, { 'user-agent': CHROME });
    await visitor.signUp();
    await visitor.poll(await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)), 3);
    // The first poll's message waits in EVENTS_DB; the next two polls queued their own.
    expect(queue.sent).toHaveLength(2);
    await consumer().run(asDeliveries(queue.sent));
    expect((await totalsOf(1)).arms[0]).toMatchObject({ purchases: 0 });
    const ctx = createExecutionContext();
    const controller = createScheduledController({ scheduledTime: Date.now(), cron: ALERTS_CRON });
    await scheduled(controller, { ...env, EVENTS_QUEUE: queue.queue }, ctx);
    await waitOnExecutionContext(ctx);
    expect(queue.sent).toHaveLength(3);
    await consumer().run(asDeliveries(queue.sent));
    const [arm] = (await totalsOf(1)).arms;
    expect(arm).toMatchObject({ purchases: 1, revenue: { USD: { sum: 699 } } });
  });

  it('a purchase by a visitor never exposed counts nowhere', async () => {
    const queue = recordingQueue();
    const visitor = checkoutVisitor({ queue: queue.queue });
    await visitor.call('/?skip_split=true', undefined, { 'user-agent': CHROME });
    await visitor.signUp();
    expect((await visitor.pay(CARDS.succeeds)).result?.status).toBe('succeeded');
    await consumer().run(asDeliveries(queue.sent));
    expect(await exposureOf(visitor.visitorId)).toBeNull();
    expect((await totalsOf(1)).arms).toEqual([]);
    expect(await shardRows('SELECT * FROM experiment_purchases')).toEqual([]);
  });
});
