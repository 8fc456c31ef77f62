import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { migrate } from '../fresh-storage';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, PLAN, PLAN_DATA, TICKED_RENEWAL_CONSENT } from './checkout-visitor';

/**
 * Each decline the worker relays is on its request's log line with its class and code, and the
 * visitor's uuid, so ops can count declines by cause and support can find one visitor's; a
 * charge's POST and its polls carry the same polling id. Through the development worker, the
 * embedded portal and the test gateway's cards.
 */

let lines: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  await migrate(env.PORTAL_DB, env.TEST_MIGRATIONS);
  await migrate(env.EVENTS_DB, env.EVENTS_MIGRATIONS);
  lines = vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await reset();
});

/** The request lines logged for `path`s containing `part`. */
function requestLines(part: string): Record<string, unknown>[] {
  return lines.mock.calls
    .map((call: unknown[]) => JSON.parse(String(call[0])) as Record<string, unknown>)
    .filter((line: Record<string, unknown>) => String(line.path ?? '').includes(part));
}

describe('the log line of a declined charge', () => {
  it('an expired card: the poll that says so carries card_invalid and expired_card, the POST the same polling id', async () => {
    const visitor = checkoutVisitor();
    await visitor.signUp();
    const { started, result } = await visitor.pay(CARDS.expired);
    expect(started.status).toBe(200);
    expect(result?.status).toBe('failed');

    const [post] = requestLines('/api/users/me/subscriptions/polling/');
    const [poll] = requestLines('/api/polling/get-result/');
    expect(poll).toMatchObject({
      status: 200,
      call: 'pollingResult',
      decline_class: 'card_invalid',
      decline_code: 'expired_card',
      visitor: visitor.visitorId,
    });
    expect(poll?.polling_id).toEqual(expect.any(String));
    // The visitor's arms are on the same line: declines count by cause per arm from the logs.
    expect(poll?.experiments).toMatch(/^split:/);
    expect(post?.polling_id).toBe(poll?.polling_id);
    // The start of a charge is no decline yet.
    expect(post?.decline_class).toBeUndefined();
  });

  it('insufficient funds through the direct call: a 422 line with insufficient_funds', async () => {
    const visitor = checkoutVisitor();
    await visitor.signUp();
    const nonce = await visitor.tokenize(CARDS.insufficientFunds);
    const response = await visitor.call(`/api/users/me/subscriptions/${PLAN}`, {
      gateway: 'test',
      payment_method_nonce: nonce,
      coupon: null,
      payment_intent_id: null,
      user_data: PLAN_DATA,
      // The US visitor's box ticked, so the card is what refuses.
      renewal_consent: TICKED_RENEWAL_CONSENT,
    });
    expect(response.status).toBe(422);
    const [line] = requestLines(`/api/users/me/subscriptions/${PLAN}`);
    expect(line).toMatchObject({
      call: 'directSubscription',
      decline_class: 'insufficient_funds',
      decline_code: 'insufficient_funds',
      visitor: visitor.visitorId,
    });
  });

  it('a card that pays leaves no decline on any line', async () => {
    const visitor = checkoutVisitor();
    await visitor.signUp();
    const { result } = await visitor.pay(CARDS.succeeds);
    expect(result?.status).toBe('succeeded');
    const charged = [
      ...requestLines('/api/users/me/subscriptions/'),
      ...requestLines('/api/polling/'),
    ];
    expect(charged).toHaveLength(2);
    for (const line of charged) expect(line.decline_class).toBeUndefined();
  });
});
