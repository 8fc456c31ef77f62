import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../../worker/env';
import { DEVELOPMENT_FACTOR, rateLimitProfile } from '../../../worker/rate-limits/rate-limit-gate';
import { freshApp, productionApp } from '../fetch-app';
import { checkoutVisitor } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';
import { fakePortal, happyPortal } from './fake-portal';

/**
 * `npm start`'s rate limits (worker/rate-limits/rate-limit-gate.ts, rulesFor): one person testing the
 * funnel from one machine (one address, one browser) gets 20 times production's, so they walk it
 * 50 times an hour, typing neighbouring example numbers and the same declining test card, without
 * meeting "Please wait a few minutes"; RATE_LIMITS=production brings production's limits back
 * under `npm start`; a production or staging worker applies production's whatever RATE_LIMITS
 * says. That no rule's development limit is below what 50 journeys add to it is worked out rule by
 * rule in test/unit/development-rate-limits.test.ts; here the worker applies those limits.
 *
 * The tests share storage: each has an address, a block of numbers and a declining card of its
 * own, so none meets another's counters.
 */

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/**
 * The `n`th number of a test's own 1000-number block (one prefix: +1 415, an exchange of the
 * block's own), as a tester types them: neighbours.
 */
const neighbour = (block: number, n: number) => `+1415${550 + block}1${String(n).padStart(3, '0')}`;

const lookupPath = (phone: string) => `/api/phone-number-info/${encodeURIComponent(phone)}`;

/** The rule a refusal was logged with. */
function refusingRule(): unknown {
  const logged: Record<string, unknown>[] = errors.mock.calls.map((call: unknown[]) =>
    JSON.parse(String(call[0])),
  );
  return logged.findLast(
    (line) => line.error === 'rate_limited' || line.error === 'payment_rate_limited',
  )?.rule;
}

/**
 * One person's journeys from one browser and `ip` on the development worker: on each, the two
 * searching screens look up two new neighbouring numbers of `block`, then a sign-up and a
 * declined charge with `card`. Stops at the first refusal; answers how many journeys went
 * through and what was refused.
 */
async function walk(
  journeys: number,
  bindings: Partial<Cloudflare.Env>,
  own: { ip: string; block: number; card: string },
) {
  const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0', ...bindings });
  const person = checkoutVisitor({ fetchApp, ip: own.ip });
  let lookups = 0;
  for (let journey = 0; journey < journeys; journey += 1) {
    for (const screen of [0, 1]) {
      const looked = await person.call(lookupPath(neighbour(own.block, journey * 2 + screen)));
      if (looked.status !== 200) return { journeys: journey, refused: looked, lookups };
      lookups += 1;
      await looked.arrayBuffer();
    }
    await person.signUp();
    const declined = await person.pay(own.card);
    if (declined.started.status !== 200) return { journeys: journey, refused: declined.started };
    expect(declined.result?.status).toBe('failed');
  }
  return { journeys, refused: null, lookups };
}

describe('under npm start (ENVIRONMENT=development, RATE_LIMITS unset)', () => {
  it('one person from one machine gets 20 times production’s limits: 100 neighbouring numbers, then sign-ups and declines past production’s, and still pays', async () => {
    const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0', RATE_LIMITS: undefined });
    const person = checkoutVisitor({ fetchApp, ip: '203.0.113.50' });
    // The tightest rule at 50 journeys of two lookups each: a block's 100 numbers an hour
    // (production's 5), each of them let through, and the 101st refused.
    for (let n = 0; n < 100; n += 1) {
      const looked = await person.call(lookupPath(neighbour(0, n)));
      expect(looked.status, neighbour(0, n)).toBe(200);
      await looked.arrayBuffer();
    }
    expect((await person.call(lookupPath(neighbour(0, 100)))).status).toBe(429);
    expect(refusingRule()).toBe('lookup_numbers_per_prefix');
    // Past production's 5 sign-ups of a visitor in 10 minutes.
    for (let n = 0; n < 6; n += 1) await person.signUp();
    // Past production's 5 declines of a visitor and of a card: the 6th decline, then a card
    // that pays.
    for (let n = 0; n < 6; n += 1) {
      const declined = await person.pay(CARDS.genericDecline);
      expect(declined.started.status, `charge ${n + 1}`).toBe(200);
      expect(declined.result?.status).toBe('failed');
    }
    expect((await person.pay(CARDS.succeeds)).result?.status).toBe('succeeded');
  });
});

describe('RATE_LIMITS=production under npm start', () => {
  it("brings back production's refusal at its limit: the 6th neighbouring number", async () => {
    const own = { ip: '203.0.113.53', block: 1, card: CARDS.incorrectCvc };
    const walked = await walk(50, { RATE_LIMITS: 'production' }, own);
    // Journeys 1 and 2 looked up 4 numbers, journey 3 the 5th; the 6th is refused.
    expect(walked.journeys).toBe(2);
    expect(walked.lookups).toBe(5);
    expect(walked.refused?.status).toBe(429);
    expect(await walked.refused?.json()).toEqual({
      errors: { messages: [] },
      code: 'rate_limited',
    });
    expect(Number(walked.refused?.headers.get('retry-after'))).toBeGreaterThan(3_500);
    expect(refusingRule()).toBe('lookup_numbers_per_prefix');
  });

  it("brings back production's card-testing limit: the 6th charge after 5 declines", async () => {
    const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0', RATE_LIMITS: 'production' });
    const person = checkoutVisitor({ fetchApp, ip: '203.0.113.51' });
    await person.signUp();
    for (let n = 0; n < 5; n += 1) {
      expect((await person.pay(CARDS.insufficientFunds)).result?.status).toBe('failed');
    }
    expect((await person.pay(CARDS.succeeds)).started.status).toBe(429);
    expect(refusingRule()).toBe('payment_declines_per_visitor');
  });

  it('a misspelt value fails closed to production’s', () => {
    for (const value of ['production', 'prod', 'Development', '']) {
      expect(
        rateLimitProfile({ ENVIRONMENT: 'development', RATE_LIMITS: value } as Bindings),
        value,
      ).toBe('production');
    }
    expect(rateLimitProfile({ ENVIRONMENT: 'development' } as Bindings)).toBe('development');
    expect(DEVELOPMENT_FACTOR).toBe(20);
  });
});

describe.each([
  ['production', 'production', 2],
  ['staging', 'staging', 4],
  ['unset', undefined, 6],
  ['Production', 'Production', 8],
])('a production build with ENVIRONMENT %s', (_, environment, block) => {
  it.each([
    ['development', block],
    [undefined, block + 1],
  ])(
    "applies production's limits with RATE_LIMITS=%s: the 6th neighbouring number is refused",
    async (setting, own) => {
      const portal = fakePortal(happyPortal);
      const fetchApp = productionApp(
        { portalFetch: portal.portalFetch },
        {
          ENVIRONMENT: environment,
          RATE_LIMITS: setting,
          // The fake portal answers at its root.
          PORTAL_URL: 'https://portal.example.com',
        },
      );
      const statuses: number[] = [];
      for (let n = 0; n < 6; n += 1) {
        const res = await fetchApp(lookupPath(neighbour(own, n)), {
          headers: { 'cf-connecting-ip': `203.0.113.${60 + own}` },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect(refusingRule()).toBe('lookup_numbers_per_prefix');
    },
  );
});
