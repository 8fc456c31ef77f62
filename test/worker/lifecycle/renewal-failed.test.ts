import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { rememberBuyers } from '../../../worker/collector/consumer/ledger-destination';
import { DEVELOPMENT_SUBSCRIBER_LINK_KEY } from '../../../worker/subscriber-links/link-key';
import { verifySubscriberLink } from '../../../worker/subscriber-links/link-token';
import { ORIGIN } from '../fetch-app';
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
 * The product API's `renewal_failed` (docs/product-api.md, "Failed renewals"): answered with a
 * signed recovery link, recorded against the subscription, and the renewal that pays it told
 * from an ordinary one by the ledger's open failure, on the real ledger (SQLite Durable Objects).
 */

const logs = capturedLogs();

const DAY_MS = 86_400_000;

/** A `renewal_failed` of `subscriptionId`, 39.99 USD due, at 07:00 that day. */
function aFailure(subscriptionId: string, overrides: Record<string, unknown> = {}) {
  return anEvent(subscriptionId, {
    type: 'renewal_failed',
    occurred_at: '2026-11-22T07:00:00Z',
    attempt_count: 1,
    decline_code: 'insufficient_funds',
    ...overrides,
  });
}

/** What the link in an answer says, checked with the development key. */
async function linkIn(body: Record<string, unknown>) {
  const url = String(body.recover_url);
  expect(url.startsWith(`${ORIGIN}/subscription/`)).toBe(true);
  const token = url.slice(`${ORIGIN}/subscription/`.length);
  return verifySubscriberLink(DEVELOPMENT_SUBSCRIBER_LINK_KEY, token, NOW);
}

describe('a renewal_failed', () => {
  it('answers its recover link in the brand and language its subscription was bought in, and names them', async () => {
    const bought = aBuyer({
      reminders: {
        planId: 'monthly_7d_intro_usd',
        chargedAt: NOW - 40 * DAY_MS,
        country: 'ES',
        language: 'es',
        theme: 'family-locator',
        origin: ORIGIN,
      },
    });
    const before = aBuyer();
    await remember(bought);
    await remember(before);
    const { send } = lifecycleApp();

    const answer = (await send(aFailure(bought.subscriptionId))).body;
    // Named for the product API's email too.
    expect(answer).toEqual({
      recorded: true,
      recover_url: expect.any(String),
      brand: 'family-locator',
      language: 'es',
    });
    const link = await linkIn(answer);
    expect(link).toMatchObject({
      ok: true,
      link: { purpose: 'recover', look: { theme: 'family-locator', language: 'es' } },
    });
    // Remembered without them (before they were kept): a link that wears the browser's.
    const plain = await linkIn((await send(aFailure(before.subscriptionId))).body);
    expect(plain).toMatchObject({ ok: true, link: { purpose: 'recover', look: null } });
  });

  it('is recorded for the buyer, moving no money, and answered with a recover link for its subscription', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const event = aFailure(buyer.subscriptionId);

    const answer = await send(event);

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ recorded: true, recover_url: expect.any(String) });
    const link = await linkIn(answer.body);
    expect(link).toMatchObject({
      ok: true,
      link: { purpose: 'recover', subscriptionId: buyer.subscriptionId },
    });
    // 30 days from when it was answered.
    expect(link.ok && link.link.expiresAt).toBe(NOW_SECONDS + 30 * 86_400);
    expect(applied).toEqual([
      {
        eventId: event.id,
        subscriptionId: buyer.subscriptionId,
        visitorId: buyer.visitorId,
        kind: 'renewal_failed',
        amountMinor: 0,
        currency: 'USD',
        at: Date.parse('2026-11-22T07:00:00Z'),
        failure: { dueMinor: 3999, attempt: 1, declineCode: 'insufficient_funds' },
      },
    ]);
  });

  it('sent again is a duplicate that still carries a fresh link, so a lost answer costs no email', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const event = aFailure(buyer.subscriptionId);

    const first = await send(event);
    const again = await send(event, { t: NOW_SECONDS + 1 });

    expect(again.body).toEqual({ duplicate: true, recover_url: expect.any(String) });
    expect(again.body.recover_url).not.toBe(first.body.recover_url);
    expect(await linkIn(again.body)).toMatchObject({ ok: true });
    expect(applied).toHaveLength(1);
  });

  it('forged, replayed or stale gets no link and counts nothing', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, post, applied } = lifecycleApp();
    const event = aFailure(buyer.subscriptionId);
    const body = JSON.stringify(event);

    const forged = await send(event, { keys: 'a guessed secret' });
    const stale = await send(event, { t: NOW_SECONDS - 301 });
    const header = await signed(body);
    const first = await post(body, header);
    const replayed = await post(body, header);

    expect(forged).toMatchObject({ status: 401, body: { error: 'bad_signature' } });
    expect(stale).toMatchObject({ status: 401, body: { error: 'stale_signature' } });
    expect(first.status).toBe(200);
    expect(replayed.status).toBe(409);
    for (const refused of [forged.body, stale.body, await replayed.json()]) {
      expect(refused).not.toHaveProperty('recover_url');
    }
    expect(applied).toHaveLength(1);
  });

  it('of a subscription not known yet is held, and still answered with its link', async () => {
    const { send } = lifecycleApp();
    const answer = await send(aFailure(aBuyer().subscriptionId));
    expect(answer).toMatchObject({
      status: 202,
      body: { recorded: false, reason: 'unknown_subscription', recover_url: expect.any(String) },
    });
  });

  it('without SUBSCRIBER_LINK_KEY is refused 503 before anything is recorded, and counts once the key is set', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const unlinked = lifecycleApp({ bindings: { SUBSCRIBER_LINK_KEY: undefined } });
    const event = aFailure(buyer.subscriptionId);

    const refused = await unlinked.send(event);
    const linked = lifecycleApp();
    const retried = await linked.send(event, { t: NOW_SECONDS + 60 });

    expect(refused).toMatchObject({ status: 503, body: { error: 'links_not_configured' } });
    expect(refused.headers.get('retry-after')).toBe('300');
    expect(unlinked.applied).toEqual([]);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'links_not_configured' }),
    );
    expect(retried).toMatchObject({ status: 200, body: { recorded: true } });
    expect(linked.applied).toHaveLength(1);
  });

  it('of a subscription id longer than a link carries is refused 400, and an ordinary event of it is not', async () => {
    const { send } = lifecycleApp();
    const long = `sub_${'x'.repeat(140)}`;
    const refused = await send(aFailure(long));
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_event' } });
    expect(String(refused.body.detail)).toContain('at most 128 characters');
    expect((await send(anEvent(long))).status).toBe(202);
  });

  it('needs what is due: without an amount or currency it is refused 400', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const noAmount = await send(aFailure(buyer.subscriptionId, { amount: null }));
    const noCurrency = await send(aFailure(buyer.subscriptionId, { currency: undefined }));
    expect(noAmount).toMatchObject({ status: 400, body: { error: 'invalid_event' } });
    expect(noCurrency).toMatchObject({ status: 400, body: { error: 'invalid_event' } });
    expect(applied).toEqual([]);
  });

  it('in another currency than the purchase is refused 422 currency_mismatch', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send } = lifecycleApp();
    const answer = await send(aFailure(buyer.subscriptionId, { currency: 'EUR' }));
    expect(answer).toMatchObject({ status: 422, body: { error: 'currency_mismatch' } });
  });

  it('takes an unusable attempt count or decline code as unknown, and logs it by kind', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const answer = await send(
      aFailure(buyer.subscriptionId, { attempt_count: 'two', decline_code: '<script>' }),
    );
    expect(answer.status).toBe(200);
    expect(applied[0]).toMatchObject({
      failure: { dueMinor: 3999, attempt: null, declineCode: null },
    });
    expect(logs.warnings()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ warning: 'lifecycle_shape', field: 'attempt_count' }),
        expect.objectContaining({ warning: 'lifecycle_shape', field: 'decline_code' }),
      ]),
    );
  });
});

describe('the renewal after a failed one', () => {
  it('counts as recovered, once: the next renewal is ordinary again', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();

    await send(aFailure(buyer.subscriptionId));
    await send(aFailure(buyer.subscriptionId, { attempt_count: 2 }), { t: NOW_SECONDS + 1 });
    await send(anEvent(buyer.subscriptionId), { t: NOW_SECONDS + 2 });
    await send(anEvent(buyer.subscriptionId, { occurred_at: '2026-11-22T07:59:50Z' }), {
      t: NOW_SECONDS + 3,
    });

    expect(applied.map((event) => [event.kind, event.recovered ?? false])).toEqual([
      ['renewal_failed', false],
      ['renewal_failed', false],
      ['renewal', true],
      ['renewal', false],
    ]);
    expect(logs.lines()).toContainEqual(expect.objectContaining({ recovered: true }));
  });

  it('is ordinary when it happened before the failure (a late delivery of an earlier renewal)', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();

    await send(aFailure(buyer.subscriptionId));
    await send(anEvent(buyer.subscriptionId, { occurred_at: '2026-10-22T07:00:00Z' }), {
      t: NOW_SECONDS + 1,
    });
    await send(anEvent(buyer.subscriptionId), { t: NOW_SECONDS + 2 });

    expect(applied.map((event) => event.recovered ?? false)).toEqual([false, false, true]);
  });

  it('after a cancellation is no recovery: the cancellation closed the failure unpaid', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();

    await send(aFailure(buyer.subscriptionId));
    await send(anEvent(buyer.subscriptionId, { type: 'cancellation', amount: 0, currency: null }), {
      t: NOW_SECONDS + 1,
    });
    await send(anEvent(buyer.subscriptionId), { t: NOW_SECONDS + 2 });

    expect(applied.map((event) => event.recovered ?? false)).toEqual([false, false, false]);
  });

  it('still counts as recovered when its first delivery failed and the retry recorded it', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    let down = false;
    const taken: { recovered?: boolean }[] = [];
    const { send } = lifecycleApp({
      apply: async (_env, events) => {
        if (down) throw new Error('experiment shard overloaded');
        taken.push(...events);
      },
    });
    await send(aFailure(buyer.subscriptionId));
    const renewal = anEvent(buyer.subscriptionId);

    down = true;
    const failed = await send(renewal, { t: NOW_SECONDS + 1 });
    down = false;
    const retried = await send(renewal, { t: NOW_SECONDS + 31 });

    expect(failed.status).toBe(503);
    expect(retried.status).toBe(200);
    expect(taken.map((event) => event.recovered ?? false)).toEqual([false, true]);
  });

  it('held for its purchase, is a recovery once the purchase and the failure are known', async () => {
    const buyer = aBuyer();
    // Held in the order they came: the failure a second before the renewal.
    await lifecycleApp().send(aFailure(buyer.subscriptionId));
    await lifecycleApp({ now: () => NOW + 1000 }).send(anEvent(buyer.subscriptionId), {
      t: NOW_SECONDS + 1,
    });
    const passed: { kind: string; recovered?: boolean }[] = [];

    await rememberBuyers(env, [buyer], {
      now: () => NOW + DAY_MS / 2,
      apply: async (_env, events) => {
        passed.push(...events);
      },
    });

    expect(passed.map((event) => [event.kind, event.recovered ?? false])).toEqual([
      ['renewal_failed', false],
      ['renewal', true],
    ]);
  });
});
