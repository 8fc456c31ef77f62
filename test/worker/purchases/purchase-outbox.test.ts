import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollingStartResponse } from '../../../shared/api/contract';
import { listArchiveObjects, readArchiveObject } from '../../../worker/collector/event-archive';
import {
  eventsOf,
  type QueuedEvent,
  type QueuedMessage,
} from '../../../worker/collector/queued-event';
import { PURCHASE_CLAIMS_KEPT_MS, pruneEventsDb } from '../../../worker/collector/retention';
import { PURCHASE_LEASE_MS } from '../../../worker/purchases/purchase-outbox';
import { ALERTS_CRON, scheduled } from '../../../worker/scheduled';
import { asDeliveries, consumer } from '../collector/consume';
import { allAccept, fakeEndpoint, META_HOST, TIKTOK_HOST } from '../collector/fake-endpoint';
import { NOW as COLLECTOR_NOW, EVERY_DESTINATION } from '../collector/fixtures';
import { faultyD1 } from '../faulty-d1';
import { freshApp, ownAddress } from '../fetch-app';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor } from './checkout-visitor';

/**
 * A verified purchase is kept before the visitor hears "succeeded": in the events queue, else in
 * EVENTS_DB for the sweep, else the visitor is told nothing yet and asks again. However EVENTS_DB
 * stalls and wherever the isolate dies (the poll, the consumer, the sweep), every purchase
 * reaches Meta, TikTok, Amplitude and the archive exactly once, under the first insert id the
 * consumer met for its subscription.
 */

let errors: string[] = [];
beforeEach(async () => {
  // Each test its own claims and archive, what the tests count whole (claims, unqueued, arrivals):
  // both emptied. The rest is each test's own already: its buyers (from addresses of their own,
  // as the rate limits count sign-ups per address), their subscriptions, queues and endpoints.
  const archive = env.EVENTS_ARCHIVE as R2Bucket;
  const archived = (await listArchiveObjects(archive, 'events/')).map(({ key }) => key);
  if (archived.length > 0) await archive.delete(archived);
  await env.EVENTS_DB.prepare('DELETE FROM verified_purchases').run();
  errors = [];
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation((line) => errors.push(String(line)));
});
afterEach(() => vi.restoreAllMocks());
const DESTINATIONS = { ...EVERY_DESTINATION, CONSENT_COUNTRIES: '' };
const AMPLITUDE_HOST = 'api2.amplitude.com';
const DAY_MS = 24 * 60 * 60 * 1000;
const PURCHASE = 'subs_purchase_completed';

/**
 * EVENTS_QUEUE, recording what reached it. While `refusing`, a send throws before the queue took
 * it; `dies: 'after'` makes the first send throw once the queue did (the answer never came back).
 */
function queueThatDies(dies: 'refused' | 'after' | null) {
  const events: QueuedEvent[] = [];
  const state = { refusing: dies === 'refused', diesAfter: dies === 'after' };
  function take(bodies: QueuedMessage[]) {
    if (state.refusing) throw new Error('Queue send failed: test outage');
    events.push(...bodies.flatMap(eventsOf));
    if (state.diesAfter) {
      state.diesAfter = false;
      throw new Error('isolate died after the send');
    }
  }
  const queue = {
    async send(body: QueuedMessage) {
      take([body]);
    },
    async sendBatch(messages: Iterable<MessageSendRequest<QueuedMessage>>) {
      take([...messages].map((message) => message.body));
    },
  };
  return { queue: queue as unknown as Queue<QueuedMessage>, events, state };
}

type Queued = ReturnType<typeof queueThatDies>;

/** The worker with this test's queue and EVENTS_DB, and a clock the test moves. */
function worker(queue: Queued, db: D1Database) {
  const clock = { now: Date.now() };
  const fetchApp = freshApp(
    { now: () => clock.now },
    { PORTAL_POLLING_DELAY_MS: '0', EVENTS_QUEUE: queue.queue, EVENTS_DB: db },
  );
  return { clock, fetchApp };
}

/**
 * A visitor pays with 4242, from `ip` (else an address of its own); `poll()` asks for the result
 * once: its status and result.
 */
async function charged(fetchApp: ReturnType<typeof freshApp>, ip = ownAddress()) {
  const visitor = checkoutVisitor({ fetchApp, ip });
  await visitor.signUp();
  const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
  const pollingId = PollingStartResponse.parse(await started.json()).data.polling_result_id;
  return async function poll() {
    const answer = await visitor.call(`/api/polling/get-result/${pollingId}`);
    const body = (await answer.json()) as {
      code?: string;
      data?: { result_data: { status: string } | null };
    };
    return { status: answer.status, code: body.code, result: body.data?.result_data?.status };
  };
}

/** What each destination received of the purchases: the ids, once per arrival. */
async function arrivals(endpoint: ReturnType<typeof fakeEndpoint>) {
  const items = (host: string, list: string) =>
    endpoint.to(host).flatMap((request) => request.body[list] as Record<string, unknown>[]);
  const archive = env.EVENTS_ARCHIVE as R2Bucket;
  const lines = await Promise.all(
    (await listArchiveObjects(archive, 'events/')).map(
      async ({ key }) => (await readArchiveObject(archive, key)) ?? [],
    ),
  );
  return {
    meta: items(META_HOST, 'data').map((item) => item.event_id),
    tiktok: items(TIKTOK_HOST, 'data').map((item) => item.event_id),
    amplitude: items(AMPLITUDE_HOST, 'events')
      .filter((item) => 'price' in item)
      .map((item) => item.insert_id),
    archive: lines
      .flat()
      .filter((line) => line.event_type === PURCHASE)
      .map((line) => line.insert_id),
  };
}

/** The purchases' claims: subscription id → the insert id that is the purchase. */
async function claims(): Promise<Map<string, string>> {
  const { results } = await env.EVENTS_DB.prepare(
    'SELECT subscription_id, insert_id FROM verified_purchases',
  ).all<{ subscription_id: string; insert_id: string }>();
  return new Map(results.map((row) => [row.subscription_id, row.insert_id]));
}

/**
 * Every destination holds each purchase exactly once: under the insert id its claim kept
 * (Amplitude, the archive) and its event id (Meta, TikTok; the product API's, one per charge),
 * and no other. A copy under the same id (the queue's at-least-once) is the same purchase to
 * each of them: Amplitude drops it by insert_id, Meta and TikTok by event_id, the archive's
 * reader by insert_id. Answers the claims.
 */
async function expectEachOnce(endpoint: ReturnType<typeof fakeEndpoint>, purchases: number) {
  const claimed = await claims();
  expect(claimed.size).toBe(purchases);
  const out = await arrivals(endpoint);
  const kept = new Set(claimed.values());
  expect(new Set(out.amplitude)).toEqual(kept);
  expect(new Set(out.archive)).toEqual(kept);
  expect(new Set(out.meta).size).toBe(purchases);
  expect(new Set(out.tiktok)).toEqual(new Set(out.meta));
  return { claimed, out };
}

async function unqueued(): Promise<number> {
  const row = await env.EVENTS_DB.prepare(
    'SELECT count(*) AS n FROM verified_purchases WHERE lease_until IS NOT NULL',
  ).first<{ n: number }>();
  return row?.n ?? 0;
}

async function sweep(at: number, queue: Queue<QueuedMessage>, db: D1Database = env.EVENTS_DB) {
  const ctx = createExecutionContext();
  const controller = createScheduledController({ scheduledTime: at, cron: ALERTS_CRON });
  await scheduled(controller, { ...env, EVENTS_QUEUE: queue, EVENTS_DB: db }, ctx);
  await waitOnExecutionContext(ctx);
}

const purchasesIn = (events: readonly QueuedEvent[]) =>
  events.filter((message) => message.event.event_type === PURCHASE);

const logged = () => errors.map((line) => JSON.parse(line) as { error: string });

describe('EVENTS_DB locked while purchases are charged', () => {
  const BUYERS = 4;

  it('tells every buyer "succeeded", retries the queue meanwhile, then counts each purchase once', async () => {
    const locked = faultyD1(env.EVENTS_DB);
    const queue = queueThatDies(null);
    const { fetchApp } = worker(queue, locked.db);
    locked.lock();
    const polls = [];
    for (let n = 0; n < BUYERS; n += 1) polls.push(await charged(fetchApp, `203.0.113.${n + 1}`));
    for (const poll of polls) expect(await poll()).toMatchObject({ result: 'succeeded' });
    expect(purchasesIn(queue.events)).toHaveLength(BUYERS);

    // The consumer cannot claim them: every message is retried with the queue's backoff.
    const endpoint = fakeEndpoint(allAccept);
    const run = consumer({ ...DESTINATIONS, EVENTS_DB: locked.db }, endpoint).run;
    const held = await run(asDeliveries(queue.events));
    expect(held.acked).toEqual([]);
    expect(held.retried).toHaveLength(BUYERS);
    expect(
      new Set(held.retried.map((retry: { delaySeconds?: number }) => retry.delaySeconds)),
    ).toEqual(new Set([30]));
    expect(endpoint.seen).toEqual([]);
    expect(logged()).toContainEqual(expect.objectContaining({ error: 'purchase_claim_failed' }));

    // Back: each buyer polls once more (another message, another insert id), and the queue
    // hands the first ones over again with the second ones in the same batch.
    locked.unlock();
    const first = [...queue.events];
    for (const poll of polls) expect(await poll()).toMatchObject({ result: 'succeeded' });
    const again = queue.events.slice(first.length);
    const done = consumer(DESTINATIONS, endpoint).run;
    const result = await done([...asDeliveries(first, 2), ...asDeliveries(again)]);
    expect(result.retried).toEqual([]);
    expect(result.acked).toHaveLength(BUYERS * 2);
    const { claimed, out } = await expectEachOnce(endpoint, BUYERS);
    expect(new Set(claimed.values())).toEqual(new Set(first.map((m) => m.event.insert_id)));
    // Not even a copy: each destination was sent each purchase once.
    for (const ids of Object.values(out)) expect(ids).toHaveLength(BUYERS);
  });
});

/** A poll whose keeping of the purchase dies somewhere; what the test then runs to recover. */
interface PollFault {
  queue: 'refused' | 'after' | null;
  db: { match: RegExp; when: 'before' | 'after' } | null;
  /** What the first poll answers. */
  told: { status: number; result?: string; code?: string };
}

const POLL_FAULTS: Record<string, PollFault> = {
  'the queue refuses the send: kept in EVENTS_DB, the sweep queues it': {
    queue: 'refused',
    db: null,
    told: { status: 200, result: 'succeeded' },
  },
  'the send fails after the queue took it: kept in both, under one insert id': {
    queue: 'after',
    db: null,
    told: { status: 200, result: 'succeeded' },
  },
  'the queue refuses and EVENTS_DB fails: the visitor is told nothing and asks again': {
    queue: 'refused',
    db: { match: /INSERT INTO verified_purchases/, when: 'before' },
    told: { status: 503, code: 'purchase_not_kept' },
  },
};

describe('a poll whose keeping of the purchase fails', () => {
  it.each(Object.entries(POLL_FAULTS))('%s; each destination gets it once', async (_, fault) => {
    const queue = queueThatDies(fault.queue);
    const dying = faultyD1(env.EVENTS_DB, fault.db);
    const { clock, fetchApp } = worker(queue, dying.db);
    const poll = await charged(fetchApp);
    expect(await poll()).toMatchObject(fault.told);
    queue.state.refusing = false;
    // The browser's next poll (the one it makes after a 503, or a reload) queues another
    // message; the cron sweeps what EVENTS_DB kept.
    expect(await poll()).toMatchObject({ status: 200, result: 'succeeded' });
    await sweep(clock.now, queue.queue);
    const endpoint = fakeEndpoint(allAccept);
    const run = consumer(DESTINATIONS, endpoint).run;
    for (const message of queue.events) await run(asDeliveries([message]));
    await expectEachOnce(endpoint, 1);
    expect(await unqueued()).toBe(0);
    // Nothing is left for a later sweep.
    const settled = queue.events.length;
    await sweep(clock.now + PURCHASE_LEASE_MS + 1, queue.queue);
    expect(queue.events).toHaveLength(settled);
  });

  it('the send fails after the queue took it and the consumer is first: the sweep sends nothing', async () => {
    const queue = queueThatDies('after');
    const { clock, fetchApp } = worker(queue, env.EVENTS_DB);
    const poll = await charged(fetchApp);
    expect(await poll()).toMatchObject({ result: 'succeeded' });
    expect(await unqueued()).toBe(1);
    const endpoint = fakeEndpoint(allAccept);
    await consumer(DESTINATIONS, endpoint).run(asDeliveries(queue.events));
    // Its claim met its own row kept for the sweep, and confirmed it queued.
    expect(await unqueued()).toBe(0);
    await sweep(clock.now, queue.queue);
    expect(queue.events).toHaveLength(1);
    await expectEachOnce(endpoint, 1);
  });
});

/**
 * What breaks at each buyer's first poll, in turn: EVENTS_DB locked, the queue refusing the send,
 * the send dying after the queue took it, the queue refusing and EVENTS_DB dying at the keeping
 * (told 503).
 */
const AT_THE_POLL: readonly (PollFault & { locked?: true })[] = [
  { queue: null, db: null, locked: true, told: { status: 200, result: 'succeeded' } },
  ...Object.values(POLL_FAULTS),
];

/**
 * What breaks in the consumer, by batch in turn: EVENTS_DB locked, the isolate dying before the
 * claims are written, after they are written, and after the destinations took the batch but
 * before the queue heard the acks (so the queue hands it over again); the rest go through.
 */
const IN_THE_CONSUMER = ['locked', 'before', 'after', 'unacked'] as const;

/**
 * The queue's side of a drain: hands `messages` over in batches of `size`, the first batches each
 * broken as IN_THE_CONSUMER says, a retried message handed over again at the end with one more
 * attempt, until nothing is left.
 */
async function drain(
  messages: readonly QueuedMessage[],
  endpoint: ReturnType<typeof fakeEndpoint>,
  size: number,
) {
  let pending = asDeliveries(messages);
  let batch = 0;
  for (; pending.length > 0; batch += 1) {
    const now = pending.slice(0, size);
    pending = pending.slice(size);
    const fault = IN_THE_CONSUMER[batch];
    const dying = faultyD1(
      env.EVENTS_DB,
      fault === 'before' || fault === 'after'
        ? { match: /INSERT INTO verified_purchases/, when: fault }
        : null,
    );
    if (fault === 'locked') dying.lock();
    const run = consumer({ ...DESTINATIONS, EVENTS_DB: dying.db }, endpoint).run;
    const result = await run(now);
    if (fault === 'unacked') pending.push(...now.map((d) => ({ ...d, attempts: 2 })));
    const retried = new Set(result.retried.map((retry: { id: string }) => retry.id));
    for (const delivery of now)
      if (retried.has(delivery.id))
        pending.push({ ...delivery, attempts: (delivery.attempts ?? 1) + 1 });
  }
  // Each break of IN_THE_CONSUMER met a batch, and a whole batch went through after them.
  expect(batch).toBeGreaterThan(IN_THE_CONSUMER.length);
}

/**
 * Twenty buyers, five for each break at the poll (AT_THE_POLL), their messages and the sweep's
 * drained in batches of ten: each break in the consumer (IN_THE_CONSUMER) meets a batch of its
 * own, the first ones holding buyers of every break at the poll, as fifty buyers in batches of 25
 * did (drain checks that every break met a batch).
 */
describe('twenty buyers while EVENTS_DB stalls and the isolate dies at each step', () => {
  const BUYERS = 20;

  it('every purchase reaches Meta, TikTok, Amplitude and the archive exactly once (20 charges side by side)', async () => {
    // Charged side by side, as buyers are.
    const buyers = await Promise.all(
      Array.from({ length: BUYERS }, async (_, n) => {
        const fault = AT_THE_POLL[n % AT_THE_POLL.length]!;
        const queue = queueThatDies(fault.queue);
        const db = faultyD1(env.EVENTS_DB, fault.db);
        if (fault.locked) db.lock();
        const { fetchApp } = worker(queue, db.db);
        const poll = await charged(fetchApp, `198.51.100.${n + 1}`);
        expect(await poll()).toMatchObject(fault.told);
        return { queue, db, poll };
      }),
    );
    // The queue is back; each browser polls again (after its 503, or on a reload).
    for (const { queue, db } of buyers) {
      queue.state.refusing = false;
      db.unlock();
    }
    const again = await Promise.all(buyers.map(({ poll }) => poll()));
    for (const answer of again) expect(answer).toMatchObject({ status: 200, result: 'succeeded' });
    // The cron sweeps what EVENTS_DB kept: its first run dies after sending, before marking.
    const swept = queueThatDies(null);
    const now = Date.now();
    const dyingSweep = faultyD1(env.EVENTS_DB, {
      match: /UPDATE verified_purchases SET message = NULL/,
      when: 'before',
    });
    await sweep(now, swept.queue, dyingSweep.db);
    expect(dyingSweep.fired()).toBe(true);
    await sweep(now + PURCHASE_LEASE_MS + 1, swept.queue);

    const endpoint = fakeEndpoint(allAccept);
    const sent = [...buyers.flatMap(({ queue }) => queue.events), ...swept.events];
    await drain(sent, endpoint, 10);
    await expectEachOnce(endpoint, BUYERS);
    expect(await unqueued()).toBe(0);
    // A later sweep finds nothing left to send.
    const settled = swept.events.length;
    await sweep(now + 2 * PURCHASE_LEASE_MS + 2, swept.queue);
    expect(swept.events).toHaveLength(settled);
    // Its own limit: with fifty buyers it took 11 s and 31 s with three other engineers' tests on
    // the machine.
  }, 300_000);
});

/** The consumer's request to EVENTS_DB dies; its retry (the same message) must count it once. */
const CONSUMER_FAULTS = {
  'before its claim is written': { match: /INSERT INTO verified_purchases/, when: 'before' },
  'after its claim is written': { match: /INSERT INTO verified_purchases/, when: 'after' },
} as const;

describe('the consumer dying', () => {
  it.each(Object.entries(CONSUMER_FAULTS))('%s: retried, then delivered once', async (_, fault) => {
    const queue = queueThatDies(null);
    const poll = await charged(worker(queue, env.EVENTS_DB).fetchApp);
    await poll();
    const endpoint = fakeEndpoint(allAccept);
    const dying = faultyD1(env.EVENTS_DB, fault);
    const first = await consumer({ ...DESTINATIONS, EVENTS_DB: dying.db }, endpoint).run(
      asDeliveries(queue.events),
    );
    expect(dying.fired()).toBe(true);
    expect(first.retried).toHaveLength(1);
    expect(endpoint.seen).toEqual([]);
    const again = await consumer(DESTINATIONS, endpoint).run(asDeliveries(queue.events, 2));
    expect(again.retried).toEqual([]);
    await expectEachOnce(endpoint, 1);
  });

  it('after delivering, before the ack: handed over again, it is the same purchase', async () => {
    const queue = queueThatDies(null);
    const poll = await charged(worker(queue, env.EVENTS_DB).fetchApp);
    await poll();
    const endpoint = fakeEndpoint(allAccept);
    await consumer(DESTINATIONS, endpoint).run(asDeliveries(queue.events));
    await consumer(DESTINATIONS, endpoint).run(asDeliveries(queue.events));
    // Sent twice under one insert id and event id, which Amplitude, Meta and TikTok drop (the
    // archive's reader takes each insert_id once): one purchase, one claim.
    const out = await arrivals(endpoint);
    expect(new Set(out.amplitude).size).toBe(1);
    expect(new Set(out.meta).size).toBe(1);
    expect((await claims()).size).toBe(1);
  });
});

describe('the sweep dying after its send, before its mark', () => {
  it('sends the same message again on a later run; the purchase counts once', async () => {
    const queue = queueThatDies('refused');
    const { clock, fetchApp } = worker(queue, env.EVENTS_DB);
    const poll = await charged(fetchApp);
    await poll();
    queue.state.refusing = false;
    const dying = faultyD1(env.EVENTS_DB, {
      match: /UPDATE verified_purchases SET message = NULL/,
      when: 'before',
    });
    await sweep(clock.now, queue.queue, dying.db);
    expect(dying.fired()).toBe(true);
    expect(await unqueued()).toBe(1);
    await sweep(clock.now + PURCHASE_LEASE_MS + 1, queue.queue);
    expect(queue.events).toHaveLength(2);
    expect(new Set(queue.events.map((message) => message.event.insert_id)).size).toBe(1);
    const endpoint = fakeEndpoint(allAccept);
    const run = consumer(DESTINATIONS, endpoint).run;
    for (const message of queue.events) await run(asDeliveries([message], 1));
    const out = await arrivals(endpoint);
    expect(new Set(out.amplitude)).toEqual(new Set((await claims()).values()));
  });
});

describe('a purchase redriven late', () => {
  it("a second poll's message, a dead letter redriven 44 days on, meets the claim and counts nothing", async () => {
    const queue = queueThatDies(null);
    const poll = await charged(worker(queue, env.EVENTS_DB).fetchApp);
    await poll();
    await poll();
    const [first, second] = queue.events;
    const endpoint = fakeEndpoint(allAccept);
    await consumer(DESTINATIONS, endpoint).run(asDeliveries([first!]));
    // The second message waited 4 hours of retries and 14 days in the dead letter queue, then
    // 30 days as a dead letter; the hourly retention ran all along.
    await pruneEventsDb(env.EVENTS_DB, COLLECTOR_NOW + 44 * DAY_MS);
    await consumer(DESTINATIONS, endpoint).run(asDeliveries([second!], 1));
    await expectEachOnce(endpoint, 1);
    // Once no message can come back, the claim goes.
    await pruneEventsDb(env.EVENTS_DB, COLLECTOR_NOW + PURCHASE_CLAIMS_KEPT_MS + 1);
    expect((await claims()).size).toBe(0);
  });
});

describe('the costs', () => {
  it('no EVENTS_DB statement on the poll, one in the consumer per batch with purchases', async () => {
    const queue = queueThatDies(null);
    const counted = faultyD1(env.EVENTS_DB);
    const poll = await charged(worker(queue, counted.db).fetchApp);
    const before = counted.statements.length;
    await poll();
    await poll();
    expect(counted.statements.slice(before).filter((sql) => sql.includes('verified_'))).toEqual([]);
    expect(purchasesIn(queue.events)).toHaveLength(2);
    const consuming = faultyD1(env.EVENTS_DB);
    await consumer({ ...DESTINATIONS, EVENTS_DB: consuming.db }).run(asDeliveries(queue.events));
    // The claim: one statement, for both messages.
    expect(consuming.statements.filter((sql) => sql.includes('verified_purchases'))).toHaveLength(
      1,
    );
  });

  it("the sweep reads only the unqueued rows' index, never the whole table", async () => {
    const plan = await env.EVENTS_DB.prepare(
      `EXPLAIN QUERY PLAN SELECT subscription_id FROM verified_purchases
       WHERE lease_until IS NOT NULL AND lease_until <= 1 ORDER BY lease_until LIMIT 50`,
    ).all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join('\n')).toMatch(
      /USING (COVERING )?INDEX verified_purchases_unqueued/,
    );
  });

  it('a failing sweep is logged, and leaves the rows for the next run', async () => {
    await env.EVENTS_DB.prepare(
      `INSERT INTO verified_purchases (subscription_id, insert_id, recorded_at, message, lease_until)
       VALUES ('sub_1', 'srv_1', 1, '{}', 1)`,
    ).run();
    await sweep(Date.now(), queueThatDies('refused').queue);
    expect(logged()).toContainEqual(expect.objectContaining({ error: 'purchase_sweep_failed' }));
    expect(await unqueued()).toBe(1);
  });
});
