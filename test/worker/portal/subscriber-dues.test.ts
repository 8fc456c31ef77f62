import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordFailedRenewal } from '../../../portal/pay-due';
import { findChargedSubscription } from '../../../portal/store/subscriber-actions';
import { signatureHeaderFor } from '../../../shared/api/hook-signature';
import { LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';
import {
  type SubscriberCallName,
  subscriberCallPath,
  subscriberCallText,
} from '../../../shared/api/subscriber-calls';
import { addUtcMonths } from '../../../shared/plans/renewal';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { boughtWithLink, PAGE_APP } from '../subscriber-links/subscriber-fixtures';
import { CARDS, tokenize } from '../test-gateway/gateway-client';
import { callPortal } from './portal-client';

/**
 * The embedded portal's pay-due (portal/pay-due.ts, docs/product-api.md "Pay what is due"): the
 * card that paid becomes the one the subscription renews with, the paid period starts at the
 * payment (the read and the answer give the same next renewal), the read names the due while it
 * is due, and the card on file pays as a card just entered does.
 */

beforeEach(async () => {
  await freshStorage();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** One of the subscriber page's calls as the worker signs it. */
async function signed(name: SubscriberCallName, subscriptionId: string, body?: unknown, key = 'k') {
  const path = subscriberCallPath(name, subscriptionId);
  const text = body === undefined ? '' : JSON.stringify(body);
  const method = body === undefined ? 'GET' : 'POST';
  const signature = await signatureHeaderFor(
    env.LIFECYCLE_HMAC_KEY ?? '',
    Math.floor(Date.now() / 1000),
    subscriberCallText(method, path, text),
  );
  const headers: Record<string, string> = { [LIFECYCLE_SIGNATURE_HEADER]: signature };
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = key;
  }
  const answer = await callPortal(path, { method, headers, ...(body ? { body: text } : {}) });
  return {
    status: answer.status,
    body: (await answer.json()) as { data: Record<string, unknown> },
  };
}

/** A bought monthly trial whose renewal failed a moment ago. */
async function failed() {
  const { subscriptionId } = await boughtWithLink(freshApp({}, PAGE_APP));
  const row = await findChargedSubscription(env.PORTAL_DB, subscriptionId);
  if (!row) throw new Error('the purchase made no subscription');
  await recordFailedRenewal(env.PORTAL_DB, row, new Date());
  return subscriptionId;
}

describe('the embedded portal’s POST /subscriptions/{id}/pay-due', () => {
  it('names the due while it is due, keeps the card that paid, and starts the period at the payment', async () => {
    const subscriptionId = await failed();
    const before = await signed('subscriptionRead', subscriptionId);
    expect(before.body.data).toMatchObject({ amount_due: 39.99, renews_at: null });
    expect(before.body.data.due_id).toMatch(/^due_[0-9a-z]+$/);
    const card = await tokenize('5555 5555 5555 4444');
    const paid = await signed('payDue', subscriptionId, {
      gateway: 'test',
      payment_method_nonce: card,
    });
    expect(paid.status).toBe(200);
    const due = await env.PORTAL_DB.prepare(
      'SELECT paid_at FROM renewal_dues WHERE subscription_id = ?',
    )
      .bind(subscriptionId)
      .first<{ paid_at: string }>();
    const renewsAt = new Date(addUtcMonths(Date.parse(due?.paid_at ?? ''), 1)).toISOString();
    expect(paid.body.data).toMatchObject({
      status: 'succeeded',
      card_brand: 'mastercard',
      card_last4: '4444',
      renews_at: renewsAt,
    });
    const after = await signed('subscriptionRead', subscriptionId);
    expect(after.body.data).toMatchObject({
      amount_due: null,
      due_id: null,
      renews_at: renewsAt,
      card_brand: 'mastercard',
      card_last4: '4444',
    });
    // The same key answers the same payment, with the same date.
    const again = await signed('payDue', subscriptionId, {
      gateway: 'test',
      payment_method_nonce: card,
    });
    expect(again.body.data).toMatchObject({ status: 'succeeded', renews_at: renewsAt });
  });

  it('a declined card keeps the old card and the date; the card on file pays as a card entered does', async () => {
    const subscriptionId = await failed();
    const declined = await signed('payDue', subscriptionId, {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.insufficientFunds),
    });
    expect(declined.status).toBe(422);
    const read = await signed('subscriptionRead', subscriptionId);
    expect(read.body.data).toMatchObject({ card_last4: '4242', amount_due: 39.99 });
    const onFile = await signed(
      'payDue',
      subscriptionId,
      { gateway: 'test', card_on_file: true },
      'k2',
    );
    expect(onFile.status).toBe(200);
    expect(onFile.body.data).toMatchObject({ status: 'succeeded', card_last4: '4242' });
    // Paid: another key finds nothing due.
    const more = await signed(
      'payDue',
      subscriptionId,
      { gateway: 'test', card_on_file: true },
      'k3',
    );
    expect(more.status).toBe(409);
  });
});
