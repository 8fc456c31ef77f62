import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../../worker/env';
import { DEVELOPMENT_FACTOR, rateLimitProfile } from '../../../worker/rate-limits/rate-limits';
import { freshApp, productionApp } from '../fetch-app';
import { migrate } from '../fresh-storage';
import { checkoutVisitor } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';
import { fakePortal, happyPortal } from './fake-portal';

/**
 * `npm start`'s rate limits (worker/rate-limits/rate-limits.ts, rulesFor): one person testing the
 * funnel from one machine (one address, one browser) walks it 50 times an hour, typing neighbouring
 * example numbers and the same declining test card, without meeting "Please wait a few minutes";
 * RATE_LIMITS=production brings production's limits back under `npm start`; a production or staging
 * worker applies production's whatever RATE_LIMITS says.
 */

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

/** The `n`th number of one 1000-number block (one prefix), as a tester types them: neighbours. */
const neighbour = (n: number) => `+14155551${String(n).padStart(3, '0')}`;

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
 * One person's journeys from one browser and address on the development worker: on each, the
 * two searching screens look up two new neighbouring numbers, then a sign-up and a declined
 * charge with the same test card; the last journey also pays. Stops at the first refusal; answers how many journeys
 * went through and what was refused.
 */
async function walk(journeys: number, bindings: Partial<Cloudflare.Env>) {
  const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0', ...bindings });
  const person = checkoutVisitor({ fetchApp, ip: '203.0.113.50' });
  let lookups = 0;
  for (let journey = 0; journey < journeys; journey += 1) {
    for (const screen of [0, 1]) {
      const looked = await person.call(
        `/api/phone-number-info/${encodeURIComponent(neighbour(journey * 2 + screen))}`,
      );
      if (looked.status !== 200) return { journeys: journey, refused: looked, lookups };
      lookups += 1;
      await looked.arrayBuffer();
    }
    await person.signUp();
    const declined = await person.pay(CARDS.genericDecline);
    if (declined.started.status !== 200) return { journeys: journey, refused: declined.started };
    expect(declined.result?.status).toBe('failed');
    // No limit counts a charge that pays: the last journey's shows the card on file still pays.
    if (journey === journeys - 1) {
      const paid = await person.pay(CARDS.succeeds);
      if (paid.started.status !== 200) return { journeys: journey, refused: paid.started };
      expect(paid.result?.status).toBe('succeeded');
    }
  }
  return { journeys, refused: null, lookups, person };
}

describe('under npm start (ENVIRONMENT=development, RATE_LIMITS unset)', () => {
  // slow: 50 journeys through the API, each two lookups, a sign-up and a declined charge
  it('one person walks 50 journeys in an hour from one machine, never limited', {
    timeout: 120_000,
  }, async () => {
    const walked = await walk(50, { RATE_LIMITS: undefined });
    expect(walked.refused?.status).toBeUndefined();
    expect(walked.journeys).toBe(50);
    // Still a limit: 100 neighbouring numbers were the block's hour; the 101st is refused.
    const next = await walked.person?.call(
      `/api/phone-number-info/${encodeURIComponent(neighbour(100))}`,
    );
    expect(next?.status).toBe(429);
    expect(refusingRule()).toBe('lookup_numbers_per_prefix');
  });
});

describe('RATE_LIMITS=production under npm start', () => {
  it("brings back production's refusal at its limit: the 6th neighbouring number", async () => {
    const walked = await walk(50, { RATE_LIMITS: 'production' });
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
      expect((await person.pay(CARDS.genericDecline)).result?.status).toBe('failed');
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
  ['production', 'production'],
  ['staging', 'staging'],
  ['unset', undefined],
  ['Production', 'Production'],
])('a production build with ENVIRONMENT %s', (_, environment) => {
  it.each([['development'], [undefined]])(
    "applies production's limits with RATE_LIMITS=%s: the 6th neighbouring number is refused",
    async (setting) => {
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
        const res = await fetchApp(`/api/phone-number-info/${encodeURIComponent(neighbour(n))}`, {
          headers: { 'cf-connecting-ip': '203.0.113.52' },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect(refusingRule()).toBe('lookup_numbers_per_prefix');
    },
  );
});
