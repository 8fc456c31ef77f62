import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  eventsOf,
  type QueuedEvent,
  type QueuedMessage,
} from '../../../worker/collector/queued-event';
import { PURCHASE_LEASE_MS } from '../../../worker/purchases/purchase-outbox';
import { ALERTS_CRON, scheduled } from '../../../worker/scheduled';
import { asDeliveries, consumer } from '../collector/consume';
import { allAccept, fakeEndpoint, META_HOST, TIKTOK_HOST } from '../collector/fake-endpoint';
import { EVERY_DESTINATION } from '../collector/fixtures';
import { faultyD1 } from '../faulty-d1';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor } from './checkout-visitor';

/**
 * A verified purchase is never lost between its claim in verified_purchases and the events queue:
 * wherever the isolate dies on that path, the next poll after the claim's lease, or the cron's
 * sweep, queues the same message again, and every destination ends up with the purchase once.
 */

let errors: string[] = [];
beforeEach(async () => {
  // Each test its own claims (the portal's subscription ids start over with its database).
  await freshStorage();
  errors = [];
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation((line) => errors.push(String(line)));
});
afterEach(() => vi.restoreAllMocks());
const DESTINATIONS = { ...EVERY_DESTINATION, CONSENT_COUNTRIES: '' };
const AMPLITUDE_HOST = 'api2.amplitude.com';

/**
 * EVENTS_QUEUE, recording what reached it. `dies` makes the first send fail: 'refused' before the
 * queue took the message, 'after' once it did (the answer never came back).
 */
function queueThatDies(dies: 'refused' | 'after' | null) {
  const events: QueuedEvent[] = [];
  let armed = dies !== null;
  function take(bodies: QueuedMessage[]) {
    const fail = armed;
    armed = false;
    if (fail && dies === 'refused') throw new Error('Queue send failed: test outage');
    events.push(...bodies.flatMap(eventsOf));
    if (fail) throw new Error('isolate died after the send');
  }
  const queue = {
    async send(body: QueuedMessage) {
      take([body]);
    },
    async sendBatch(messages: Iterable<MessageSendRequest<QueuedMessage>>) {
      take([...messages].map((message) => message.body));
    },
  };
  return { queue: queue as unknown as Queue<QueuedMessage>, events };
}

interface Fault {
  db: { match: RegExp; when: 'before' | 'after' } | null;
  queue: 'refused' | 'after' | null;
  /**
   * Whether the request learns its send failed, and so gives the lease up: the next poll then
   * queues the message again at once. Otherwise the claim waits out its lease, as for a request
   * that died.
   */
  released: boolean;
}

const FAULTS: Record<string, Fault> = {
  'after the claim': {
    db: { match: /INSERT INTO verified_purchases/, when: 'after' },
    queue: null,
    released: false,
  },
  'in the send, refused': { db: null, queue: 'refused', released: true },
  'in the send, after the queue took it': { db: null, queue: 'after', released: true },
  'after the send, before the mark': {
    db: { match: /UPDATE verified_purchases SET message = NULL/, when: 'before' },
    queue: null,
    released: false,
  },
};

/** Buys once through the worker, dying at `fault`; the clock and the way to poll again. */
async function buyDyingAt(fault: Fault) {
  const clock = { now: Date.now() };
  const queue = queueThatDies(fault.queue);
  const db = faultyD1(env.EVENTS_DB, fault.db);
  const fetchApp = freshApp(
    { now: () => clock.now },
    { PORTAL_POLLING_DELAY_MS: '0', EVENTS_QUEUE: queue.queue, EVENTS_DB: db.db },
  );
  const visitor = checkoutVisitor({ fetchApp });
  await visitor.signUp();
  const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
  const again = started.clone();
  const [result] = await visitor.poll(started, 1);
  expect(result?.status).toBe('succeeded');
  return {
    clock,
    queue,
    db,
    pollAgain: (times: number) => visitor.poll(again.clone(), times),
  };
}

/** Every queued message delivered by the queue, each in a batch of its own as a redelivery is. */
async function deliverEach(events: readonly QueuedEvent[]) {
  const endpoint = fakeEndpoint(allAccept);
  const run = consumer(DESTINATIONS, endpoint).run;
  for (const event of events) await run(asDeliveries([event]));
  const ids = (host: string, key: string, list: string) =>
    new Set(
      endpoint
        .to(host)
        .flatMap((request) => request.body[list] as Record<string, unknown>[])
        .filter((item) => host !== AMPLITUDE_HOST || 'price' in item)
        .map((item) => item[key]),
    );
  return {
    meta: ids(META_HOST, 'event_id', 'data'),
    tiktok: ids(TIKTOK_HOST, 'event_id', 'data'),
    amplitude: ids(AMPLITUDE_HOST, 'insert_id', 'events'),
  };
}

async function unconfirmed(): Promise<number> {
  const row = await env.EVENTS_DB.prepare(
    'SELECT count(*) AS n FROM verified_purchases WHERE lease_until IS NOT NULL',
  ).first<{ n: number }>();
  return row?.n ?? 0;
}

async function sweep(at: number, queue: Queue<QueuedMessage>) {
  const ctx = createExecutionContext();
  const controller = createScheduledController({ scheduledTime: at, cron: ALERTS_CRON });
  await scheduled(controller, { ...env, EVENTS_QUEUE: queue }, ctx);
  await waitOnExecutionContext(ctx);
}

describe('a purchase whose path to the queue dies', () => {
  describe.each(Object.entries(FAULTS))('%s', (_name, fault) => {
    it.each(['the next poll', 'the scheduled sweep'] as const)(
      'is queued again by %s, with its first insert id, and reaches each destination once',
      async (recovery) => {
        const bought = await buyDyingAt(fault);
        expect(bought.db.fired() || fault.db === null).toBe(true);
        const firstTry = [...bought.queue.events];
        expect(await unconfirmed()).toBe(1);
        if (!fault.released) {
          // Within the lease, a poll finds the claim held and queues nothing more.
          await bought.pollAgain(2);
          expect(bought.queue.events).toEqual(firstTry);
          expect(await unconfirmed()).toBe(1);
          bought.clock.now += PURCHASE_LEASE_MS + 1;
        }
        if (recovery === 'the next poll') await bought.pollAgain(3);
        else await sweep(bought.clock.now, bought.queue.queue);

        const purchases = bought.queue.events.filter(
          (message) => message.event.event_type === 'subs_purchase_completed',
        );
        // Queued at least once, each time the same message: one insert id, one buyer context.
        expect(purchases.length).toBeGreaterThanOrEqual(1);
        expect(new Set(purchases.map((message) => JSON.stringify(message))).size).toBe(1);
        expect(await unconfirmed()).toBe(0);

        const out = await deliverEach(purchases);
        const [purchase] = purchases;
        expect(out.meta).toEqual(new Set([purchase?.event.event_properties.event_id]));
        expect(out.tiktok).toEqual(new Set([purchase?.event.event_properties.event_id]));
        expect(out.amplitude).toEqual(new Set([purchase?.event.insert_id]));

        // Confirmed: neither another poll nor a sweep queues it again.
        const settled = bought.queue.events.length;
        bought.clock.now += PURCHASE_LEASE_MS + 1;
        await bought.pollAgain(1);
        await sweep(bought.clock.now, bought.queue.queue);
        expect(bought.queue.events).toHaveLength(settled);
      },
    );
  });
});

describe('the outbox costs', () => {
  it('two EVENTS_DB statements on verified_purchases per purchase, one per later poll', async () => {
    const bought = await buyDyingAt({ db: null, queue: null, released: false });
    const onPurchases = () =>
      bought.db.statements.filter((sql) => sql.includes('verified_purchases'));
    // The claim, and the mark once queued.
    expect(onPurchases()).toHaveLength(2);
    expect(bought.queue.events).toHaveLength(1);
    await bought.pollAgain(2);
    expect(onPurchases()).toHaveLength(4);
    expect(bought.queue.events).toHaveLength(1);
    // Confirmed, it keeps no message (the buyer's address and hashed email).
    const row = await env.EVENTS_DB.prepare(
      'SELECT message, lease_until FROM verified_purchases',
    ).first();
    expect(row).toEqual({ message: null, lease_until: null });
  });

  it("the sweep reads only the unconfirmed claims' index, never the whole table", async () => {
    const plan = await env.EVENTS_DB.prepare(
      `EXPLAIN QUERY PLAN SELECT subscription_id FROM verified_purchases
       WHERE lease_until IS NOT NULL AND lease_until <= 1 ORDER BY lease_until LIMIT 50`,
    ).all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join('\n')).toMatch(
      /USING (COVERING )?INDEX verified_purchases_unqueued/,
    );
  });

  it('a failing sweep is logged, and leaves the claims for the next run', async () => {
    await env.EVENTS_DB.prepare(
      `INSERT INTO verified_purchases (subscription_id, insert_id, recorded_at, message, lease_until)
       VALUES ('sub_1', 'srv_1', 1, '{}', 1)`,
    ).run();
    const queue = queueThatDies('refused');
    await sweep(Date.now(), queue.queue);
    expect(errors.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ error: 'purchase_sweep_failed' }),
    );
    expect(await unconfirmed()).toBe(1);
  });
});
