import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiErrorBody } from '../../../shared/api/contract';
import { freshApp } from '../fetch-app';
import { migrate } from '../fresh-storage';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, DECLINING_CARDS } from './checkout-visitor';

const UPSELL_DATA = { price: '9.99', currency: 'USD' };

/**
 * Card-testing limits: after a handful of declines in an hour (per visitor, per
 * address) or attempts with one card, a charge is refused before it reaches the product API,
 * with its own code, text and log line. Each rule at its boundary: the last allowed, the first
 * refused. A visitor paying normally, after one decline, and buying an upsell never meets one.
 */

// Each test starts with no counters and empty databases: the cards' fingerprints are the same
// in every test, and a counter left over would decide the next test's boundary.
let errors: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  await migrate(env.PORTAL_DB, env.TEST_MIGRATIONS);
  await migrate(env.EVENTS_DB, env.EVENTS_MIGRATIONS);
  vi.spyOn(console, 'log').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await reset();
});

let block = 0;
/** Addresses of a block of their own. */
function addresses() {
  block += 1;
  return (host: number) => `198.51.${block}.${host}`;
}

/** One development worker for the test, as every visitor's browser reaches it. */
function worker() {
  return freshApp({}, { PORTAL_POLLING_DELAY_MS: '0' });
}

async function chargesReachingPortal(): Promise<number> {
  const row = await env.PORTAL_DB.prepare('SELECT count(*) AS n FROM subscriptions').first<{
    n: number;
  }>();
  return row?.n ?? 0;
}

async function expectPaymentLimited(response: Response, rule: string) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(3_000);
  expect(ApiErrorBody.parse(await response.json())).toEqual({
    errors: { messages: [] },
    code: 'payment_rate_limited',
  });
  const logged = errors.mock.calls.map((call: unknown[]) => JSON.parse(String(call[0])));
  expect(logged).toContainEqual(
    expect.objectContaining({ error: 'payment_rate_limited', call: 'pollingSubscription', rule }),
  );
}

describe('declines per visitor', () => {
  it('the 5th attempt after 4 declines goes through; after the 5th decline, the 6th is refused before the portal', async () => {
    const ip = addresses();
    const visitor = checkoutVisitor({ fetchApp: worker(), ip: ip(1) });
    await visitor.signUp();
    for (const card of DECLINING_CARDS.slice(0, 5)) {
      const { started, result } = await visitor.pay(card);
      expect(started.status).toBe(200);
      expect(result?.status).toBe('failed');
    }
    const before = await chargesReachingPortal();
    const refused = await visitor.subscribe(await visitor.tokenize(DECLINING_CARDS[5]));
    await expectPaymentLimited(refused, 'payment_declines_per_visitor');
    // Even a card that would pay is refused now: the limit is the visitor's, not the card's.
    const good = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
    expect(good.status).toBe(429);
    expect(await chargesReachingPortal()).toBe(before);
  });

  it('polling one declined result again and again counts it once', async () => {
    const ip = addresses();
    const visitor = checkoutVisitor({ fetchApp: worker(), ip: ip(1) });
    await visitor.signUp();
    const started = await visitor.subscribe(await visitor.tokenize(CARDS.genericDecline));
    const results = await visitor.poll(started, 8);
    expect(results.every((result) => result?.status === 'failed')).toBe(true);
    for (const card of DECLINING_CARDS.slice(1, 5)) {
      expect((await visitor.pay(card)).started.status).toBe(200);
    }
    // Five declines in all, however often the first was read: the sixth attempt is the one refused.
    expect((await visitor.pay(CARDS.succeeds)).started.status).toBe(429);
  });
});

describe('declines per address', () => {
  it('20 declines from one address across visitors: the 20th attempt goes through, the 21st is refused', async () => {
    const fetchApp = worker();
    const ip = addresses()(7);
    // Cards rotated so that no card declines more often than its own limit allows.
    for (let v = 0; v < 4; v += 1) {
      const visitor = checkoutVisitor({ fetchApp, ip });
      await visitor.signUp();
      for (let n = 0; n < 5; n += 1) {
        const card = DECLINING_CARDS[(v + n) % 5] as string;
        expect((await visitor.pay(card)).started.status).toBe(200);
      }
    }
    const newcomer = checkoutVisitor({ fetchApp, ip });
    await newcomer.signUp();
    const before = await chargesReachingPortal();
    const refused = await newcomer.subscribe(await newcomer.tokenize(DECLINING_CARDS[5]));
    await expectPaymentLimited(refused, 'payment_declines_per_ip');
    expect(await chargesReachingPortal()).toBe(before);

    // Another address is not held back by this one.
    const elsewhere = checkoutVisitor({ fetchApp, ip: addresses()(8) });
    await elsewhere.signUp();
    expect((await elsewhere.pay(CARDS.succeeds)).result?.status).toBe('succeeded');
  });
});

describe('declines per card', () => {
  it('one card from many visitors and addresses: the 5th attempt after 4 declines goes through, the 6th is refused', async () => {
    const fetchApp = worker();
    const ip = addresses();
    for (let v = 1; v <= 5; v += 1) {
      const visitor = checkoutVisitor({ fetchApp, ip: ip(v) });
      await visitor.signUp();
      const { started, result } = await visitor.pay(CARDS.genericDecline);
      expect(started.status).toBe(200);
      expect(result?.status).toBe('failed');
    }
    const sixth = checkoutVisitor({ fetchApp, ip: ip(6) });
    await sixth.signUp();
    const before = await chargesReachingPortal();
    const refused = await sixth.subscribe(await sixth.tokenize(CARDS.genericDecline));
    await expectPaymentLimited(refused, 'payment_declines_per_card');
    expect(await chargesReachingPortal()).toBe(before);
    // The same visitor with another card pays.
    expect((await sixth.pay(CARDS.succeeds)).result?.status).toBe('succeeded');
  });

  it('a card that pays is never held back, however often it pays', async () => {
    const fetchApp = worker();
    const ip = addresses();
    for (let v = 1; v <= 8; v += 1) {
      const visitor = checkoutVisitor({ fetchApp, ip: ip(v) });
      await visitor.signUp();
      expect((await visitor.pay(CARDS.succeeds)).result?.status).toBe('succeeded');
    }
  });
});

describe('real visitors never meet a limit', () => {
  it('one decline, a good card, then two upsells on file', async () => {
    const visitor = checkoutVisitor({ fetchApp: worker(), ip: addresses()(1) });
    await visitor.signUp();
    expect((await visitor.pay(CARDS.insufficientFunds)).result?.status).toBe('failed');
    expect((await visitor.pay(CARDS.succeeds)).result?.status).toBe('succeeded');
    // Two upsells on the card on file: each a purchase of its own (a plan is bought once).
    for (const upsell of ['upsell_monthly_999_usd', 'upsell_quarterly_999_usd']) {
      const started = await visitor.subscribe(
        null,
        crypto.randomUUID(),
        upsell,
        UPSELL_DATA,
        'upsell_30',
      );
      expect((await visitor.poll(started))[0]?.status).toBe('succeeded');
    }
    const logged = errors.mock.calls.map((call: unknown[]) => JSON.parse(String(call[0])).error);
    expect(logged).not.toContain('payment_rate_limited');
  });
});
