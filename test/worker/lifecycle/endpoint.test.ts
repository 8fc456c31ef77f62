import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_BYTES } from '../../../worker/lifecycle/route';
import { DEVELOPMENT_LIFECYCLE_KEY } from '../../../worker/portal-client/lifecycle-key';
import {
  aBuyer,
  anEvent,
  capturedLogs,
  lifecycleApp,
  NOW,
  NOW_SECONDS,
  remember,
  signed,
} from './lifecycle-fixtures';

/**
 * `POST /hooks/subscription-events` as the product API meets it: what it records for the
 * experiments, and every way a call is refused, on the real ledger (SQLite Durable Objects).
 */

const logs = capturedLogs();

describe('a signed event of a subscription the funnel sold', () => {
  it('is recorded for the buyer, in minor units, at the time it happened', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const event = anEvent(buyer.subscriptionId);

    const answer = await send(event);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ recorded: true });
    expect(applied).toEqual([
      {
        eventId: event.id,
        subscriptionId: buyer.subscriptionId,
        visitorId: buyer.visitorId,
        kind: 'renewal',
        amountMinor: 3999,
        currency: 'USD',
        at: Date.parse('2026-11-22T07:59:30Z'),
      },
    ]);
  });

  it.each([
    ['refund', { amount: 6.99, currency: 'EUR' }, -699, 'EUR'],
    ['chargeback', { amount: 39.99, currency: 'USD' }, -3999, 'USD'],
    ['cancellation', { amount: 0, currency: null }, 0, null],
    ['cancellation', { amount: null, currency: null }, 0, null],
    // A currency without minor units counts in whole yen.
    ['renewal', { amount: 1200, currency: 'JPY' }, 1200, 'JPY'],
  ] as const)('counts a %s of %j as %d %s', async (type, money, amountMinor, currency) => {
    // Bought in the event's currency (a cancellation names none).
    const buyer = aBuyer(
      currency === null ? {} : { currency, paidMinor: amountMinor < 0 ? 3999 : 1200 },
    );
    await remember(buyer);
    const { send, applied } = lifecycleApp();

    const answer = await send(anEvent(buyer.subscriptionId, { type, ...money }));

    expect(answer).toMatchObject({ status: 200, body: { recorded: true } });
    expect(applied).toEqual([expect.objectContaining({ kind: type, amountMinor, currency })]);
  });

  it('is counted once when the product API sends it again, freshly signed', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const event = anEvent(buyer.subscriptionId);

    expect(await send(event)).toMatchObject({ status: 200, body: { recorded: true } });
    const again = await send(event, { t: NOW_SECONDS + 60 });

    expect(again).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(applied).toHaveLength(1);
  });

  it('takes a signature among several, as while the secret is being rolled', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { post, applied } = lifecycleApp();
    const body = JSON.stringify(anEvent(buyer.subscriptionId));
    // The old secret's first, then ours, and a v0 scheme nobody reads.
    const rolled = await signed(body, { keys: ['the-old-secret', DEVELOPMENT_LIFECYCLE_KEY] });
    const header = `${rolled},v0=${'0'.repeat(64)}`;

    const response = await post(body, header);

    expect(response.status).toBe(200);
    expect(applied).toHaveLength(1);
  });

  it('is taken at 300 s from our clock either way, the edge of the window', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send } = lifecycleApp();
    expect((await send(anEvent(buyer.subscriptionId), { t: NOW_SECONDS - 300 })).status).toBe(200);
    expect((await send(anEvent(buyer.subscriptionId), { t: NOW_SECONDS + 300 })).status).toBe(200);
  });
});

describe('an event of a subscription the ledger does not know', () => {
  it('is answered 202 unknown_subscription, passed nowhere, and counted once', async () => {
    const { send, applied } = lifecycleApp();
    const event = anEvent(aBuyer().subscriptionId);

    const answer = await send(event);
    const again = await send(event, { t: NOW_SECONDS + 1 });

    expect(answer).toMatchObject({
      status: 202,
      body: { recorded: false, reason: 'unknown_subscription' },
    });
    expect(again).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(applied).toEqual([]);
  });
});

describe('a call that is not signed with our secret', () => {
  it('without the header is refused 401 missing_signature', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { post, applied } = lifecycleApp();
    const response = await post(JSON.stringify(anEvent(buyer.subscriptionId)));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'missing_signature' });
    expect(applied).toEqual([]);
  });

  it.each([
    ['', '"" is not key=value'],
    ['v1=', 'v1 is not 64 hex digits'],
    [`t=abc,v1=${'a'.repeat(64)}`, 't is not unix seconds'],
    [`t=${NOW_SECONDS}`, 'no v1 signature'],
    [`v1=${'a'.repeat(64)}`, 'no t'],
    [`t=${NOW_SECONDS},v1=abc`, 'v1 is not 64 hex digits'],
    [`t=${NOW_SECONDS},t=${NOW_SECONDS},v1=${'a'.repeat(64)}`, 't given twice'],
    [
      `t=${NOW_SECONDS},${`v1=${'a'.repeat(64)},`.repeat(6).slice(0, -1)}`,
      'more than 5 v1 signatures',
    ],
  ])('with the header %j is refused 401 malformed_signature', async (header, detail) => {
    const { post, applied } = lifecycleApp();
    const response = await post(JSON.stringify(anEvent(aBuyer().subscriptionId)), header);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: string; detail: string };
    expect(body.error).toBe('malformed_signature');
    expect(body.detail).toBe(detail);
    expect(applied).toEqual([]);
  });

  it('signed with another secret is refused 401 bad_signature, and leaves no trace', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const event = anEvent(buyer.subscriptionId);

    const forged = await send(event, { keys: 'a-guessed-secret' });

    expect(forged).toMatchObject({ status: 401, body: { error: 'bad_signature' } });
    expect(applied).toEqual([]);
    // Neither its event id nor anything else was kept: the real call still counts.
    expect(await send(event)).toMatchObject({ status: 200, body: { recorded: true } });
    expect(applied).toHaveLength(1);
  });

  it('whose body was changed after signing is refused 401 bad_signature', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { post, applied } = lifecycleApp();
    const body = JSON.stringify(anEvent(buyer.subscriptionId, { type: 'refund', amount: 1 }));
    const header = await signed(body);
    const response = await post(body.replace('"amount":1', '"amount":1000'), header);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'bad_signature' });
    expect(applied).toEqual([]);
  });

  it('whose signature names another time than it was made at is refused 401 bad_signature', async () => {
    const { post } = lifecycleApp();
    const body = JSON.stringify(anEvent(aBuyer().subscriptionId));
    // A stale request's t moved into the window: the signature covers t.
    const stale = await signed(body, { t: NOW_SECONDS - 3600 });
    const moved = stale.replace(`t=${NOW_SECONDS - 3600}`, `t=${NOW_SECONDS}`);
    expect((await post(body, moved)).status).toBe(401);
  });
});

describe('a signed call outside the 5 minutes', () => {
  it.each([
    ['older', -301, 't is 301 s behind our clock; at most 300 s is taken'],
    ['newer', 301, 't is 301 s ahead of our clock; at most 300 s is taken'],
    ['a day older', -86_400, 't is 86400 s behind our clock; at most 300 s is taken'],
  ])('%s than that is refused 401 stale_signature', async (_, offset, detail) => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const answer = await send(anEvent(buyer.subscriptionId), { t: NOW_SECONDS + offset });
    expect(answer).toMatchObject({ status: 401, body: { error: 'stale_signature', detail } });
    expect(applied).toEqual([]);
  });
});

describe('a replayed call', () => {
  it('is refused 409 replayed, by this isolate and by a fresh one, and counted once', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { post, applied } = lifecycleApp();
    const body = JSON.stringify(anEvent(buyer.subscriptionId));
    const header = await signed(body);

    expect((await post(body, header)).status).toBe(200);
    const replayed = await post(body, header);
    // Another isolate never saw it: the ledger refuses it.
    const elsewhere = lifecycleApp();
    const replayedElsewhere = await elsewhere.post(body, header);

    expect(replayed.status).toBe(409);
    expect(await replayed.json()).toEqual({ error: 'replayed' });
    expect(replayedElsewhere.status).toBe(409);
    expect([...applied, ...elsewhere.applied]).toHaveLength(1);
  });

  it('in a burst reaches the ledger once, and an unsigned burst not at all', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    let ledgerCalls = 0;
    const ledger = env.SUBSCRIPTION_LEDGER;
    const counting = {
      idFromName: (name: string) => ledger.idFromName(name),
      get: (id: DurableObjectId) => {
        ledgerCalls += 1;
        return ledger.get(id);
      },
    } as unknown as typeof ledger;
    const { post, applied } = lifecycleApp({ bindings: { SUBSCRIPTION_LEDGER: counting } });
    const body = JSON.stringify(anEvent(buyer.subscriptionId));
    const header = await signed(body);

    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await post(body, header)).status);
    const unsigned = `${header.slice(0, -1)}${header.endsWith('0') ? '1' : '0'}`;
    for (let i = 0; i < 10; i++) statuses.push((await post(body, unsigned)).status);

    expect(statuses).toEqual([200, ...Array(9).fill(409), ...Array(10).fill(401)]);
    expect(ledgerCalls).toBe(1);
    expect(applied).toHaveLength(1);
  });

  it('refused for its body, leaves nothing behind: sent again, it is refused for its body again', async () => {
    const { post } = lifecycleApp();
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'renewal',
      subscription_id: aBuyer().subscriptionId,
    });
    const header = await signed(body);
    expect((await post(body, header)).status).toBe(400);
    // Nothing was kept: the same signed request is refused for its body again, not counted.
    expect((await post(body, header)).status).toBe(400);
  });
});

describe('a body the endpoint cannot count', () => {
  const sub = 'sub_any';
  it.each([
    ['not JSON', '{"id":', 'body is not JSON'],
    ['an array', '[]', 'body: a JSON object is required (found array)'],
    [
      'without an id',
      { ...anEvent(sub), id: undefined },
      'id: a non-empty string is required (found missing)',
    ],
    [
      'with a numeric id',
      { ...anEvent(sub), id: 7 },
      'id: a non-empty string is required (found number)',
    ],
    [
      'with a 101-character id',
      anEvent(sub, { id: 'e'.repeat(101) }),
      'id: longer than 100 characters',
    ],
    [
      'of another type',
      { ...anEvent(sub), type: 'trial_started' },
      'type: one of renewal, refund, chargeback, cancellation, renewal_failed is required',
    ],
    [
      'without a subscription',
      { ...anEvent(sub), subscription_id: '' },
      'subscription_id: a non-empty string is required (found string)',
    ],
    [
      'a renewal without an amount',
      anEvent(sub, { amount: null }),
      'amount: a number in major units (39.99) is required (found null)',
    ],
    [
      'with the amount as text',
      { ...anEvent(sub), amount: '39.99' },
      'amount: a number in major units (39.99) is required (found string)',
    ],
    [
      'a refund with a negative amount',
      anEvent(sub, { type: 'refund', amount: -6.99 }),
      "amount: must not be negative; a refund's amount is positive",
    ],
    [
      'a refund without a currency',
      anEvent(sub, { type: 'refund', currency: null }),
      'currency: an ISO 4217 code is required (found null)',
    ],
    [
      'with the currency as a symbol',
      anEvent(sub, { currency: '$' }),
      'currency: "$" is not an ISO 4217 code',
    ],
  ])('%s is refused 400 invalid_event, saying why', async (_, event, detail) => {
    const { send, applied } = lifecycleApp();
    const answer = await send(event);
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_event', detail } });
    expect(applied).toEqual([]);
  });

  it(`over ${MAX_EVENT_BYTES} bytes is refused 413 unread`, async () => {
    const { send } = lifecycleApp();
    const event = anEvent(aBuyer().subscriptionId, { note: 'x'.repeat(MAX_EVENT_BYTES) });
    expect(await send(event)).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
  });
});

describe('a body in another form than documented', () => {
  it('is taken, and what differed is logged by field and kind, never by value', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const event = {
      ...anEvent(buyer.subscriptionId, { currency: 'usd', livemode: true, customer: 'cus_secret' }),
      occurred_at: undefined,
    };

    const answer = await send(event);

    expect(answer).toMatchObject({ status: 200, body: { recorded: true } });
    // Without occurred_at, the time it reached us.
    expect(applied).toEqual([
      expect.objectContaining({ currency: 'USD', amountMinor: 3999, at: NOW }),
    ]);
    const drift = logs
      .warnings()
      .filter((line) => line.warning === 'lifecycle_shape')
      .map(({ field, found }) => ({ field, found }));
    expect(drift).toEqual([
      { field: 'currency', found: 'string not upper case' },
      { field: 'occurred_at', found: 'missing' },
      { field: 'livemode', found: 'extra' },
      { field: 'customer', found: 'extra' },
    ]);
    expect(JSON.stringify(logs.warnings())).not.toContain('cus_secret');
  });

  it('notes money on a cancellation and counts none', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    await send(
      anEvent(buyer.subscriptionId, { type: 'cancellation', amount: 39.99, currency: 'USD' }),
    );
    expect(applied).toEqual([expect.objectContaining({ amountMinor: 0, currency: null })]);
    expect(logs.warnings()).toContainEqual(
      expect.objectContaining({
        warning: 'lifecycle_shape',
        field: 'amount',
        found: 'number on a cancellation',
      }),
    );
  });
});

describe('when the experiments cannot take the event', () => {
  it('answers 503 so the product API retries, and the retry counts it', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    let down = true;
    const taken: unknown[] = [];
    const { send } = lifecycleApp({
      apply: async (_env, events) => {
        if (down) throw new Error('experiment shard overloaded');
        taken.push(...events);
      },
    });
    const event = anEvent(buyer.subscriptionId);

    const failed = await send(event);
    down = false;
    const retried = await send(event, { t: NOW_SECONDS + 30 });

    expect(failed).toMatchObject({ status: 503, body: { error: 'lifecycle_unavailable' } });
    expect(failed.headers.get('retry-after')).toBe('30');
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'lifecycle_apply_failed', event_id: event.id }),
    );
    expect(retried).toMatchObject({ status: 200, body: { recorded: true } });
    expect(taken).toHaveLength(1);
  });

  it('answers a delivery that overtakes one still being recorded 409 event_in_progress', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    let finish: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let started: () => void = () => {};
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    let calls = 0;
    const { send } = lifecycleApp({
      apply: async () => {
        calls += 1;
        if (calls > 1) return;
        started();
        await first;
      },
    });
    const event = anEvent(buyer.subscriptionId);

    const slow = send(event);
    // The first delivery has claimed the event and is passing it on.
    await firstStarted;
    const overtaking = await send(event, { t: NOW_SECONDS + 1 });
    finish();

    expect(overtaking).toMatchObject({ status: 409, body: { error: 'event_in_progress' } });
    expect(Number(overtaking.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await slow).toMatchObject({ status: 200, body: { recorded: true } });
    expect(await send(event, { t: NOW_SECONDS + 2 })).toMatchObject({ body: { duplicate: true } });
    expect(calls).toBe(1);
  });
});

describe('configuration', () => {
  it('without LIFECYCLE_HMAC_KEY answers 503 lifecycle_not_configured, whatever is sent', async () => {
    const { send } = lifecycleApp({ bindings: { LIFECYCLE_HMAC_KEY: undefined } });
    const answer = await send(anEvent(aBuyer().subscriptionId));
    expect(answer).toMatchObject({ status: 503, body: { error: 'lifecycle_not_configured' } });
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'lifecycle_not_configured',
        detail: 'LIFECYCLE_HMAC_KEY is not set',
      }),
    );
  });

  it.each(['production', 'staging', undefined])(
    'refuses the public development key where ENVIRONMENT is %s',
    async (environment) => {
      const { send } = lifecycleApp({ bindings: { ENVIRONMENT: environment } });
      const answer = await send(anEvent(aBuyer().subscriptionId));
      expect(answer).toMatchObject({ status: 503, body: { error: 'lifecycle_not_configured' } });
    },
  );

  it('verifies with the secret a deployed worker is given', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const secret = 'a-long-random-production-secret';
    const { send, applied } = lifecycleApp({
      bindings: { ENVIRONMENT: 'production', LIFECYCLE_HMAC_KEY: secret },
    });
    expect(
      (await send(anEvent(buyer.subscriptionId), { keys: DEVELOPMENT_LIFECYCLE_KEY })).status,
    ).toBe(401);
    expect((await send(anEvent(buyer.subscriptionId), { keys: secret })).status).toBe(200);
    expect(applied).toHaveLength(1);
  });

  it('answers anything but a POST 405, naming POST', async () => {
    const { request } = lifecycleApp();
    const response = await request({ method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
