import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hex } from '../../../shared/hex';
import { PLAN_CATALOGUE } from '../../../shared/plans/catalogue';
import { COUPONS } from '../../../shared/plans/coupons';
import { fakePortal, happyPortal, postJson } from '../api/fake-portal';
import { freshApp } from '../fetch-app';

/**
 * Whatever plan id and coupon a hand-made `/api` call names, the product API is asked to charge
 * only what the default flow's screens offer a US visitor: checkout_v3_tr's three plans without a
 * coupon, and, once the account bought a main plan, upsell_an_private's two at its 30% coupon.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const MAIN = new Set(['monthly_7d_intro_usd', 'monthly_usd', 'quarterly_usd']);
const UPSELL = new Set(['upsell_monthly_999_usd', 'upsell_quarterly_999_usd']);

/** The oracle, written out rather than derived from the code it checks. */
function offered(planId: string, coupon: string | null, holdsMain: boolean): boolean {
  const sent = coupon ? coupon : null;
  if (MAIN.has(planId)) return sent === null;
  return holdsMain && UPSELL.has(planId) && sent === 'upsell_30';
}

async function holdMainPurchase(token: string): Promise<void> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const namespace = env.RATE_LIMITER;
  await namespace
    .get(namespace.idFromName(`main_purchase:${hex(new Uint8Array(digest))}`))
    .remember('1', 60_000);
}

const planIds = fc.oneof(
  fc.constantFrom(...MAIN, ...UPSELL),
  fc.constantFrom(...PLAN_CATALOGUE.map((plan) => plan.id)),
  fc.stringMatching(/^[A-Za-z0-9_.-]{1,80}$/),
);
const coupons = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  fc.constantFrom(...Object.values(COUPONS).map((coupon) => coupon.code)),
  fc.string({ maxLength: 80 }),
);

describe('a hand-made charge call', () => {
  it('is forwarded only for a plan and coupon the offer holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        planIds,
        coupons,
        fc.boolean(),
        fc.boolean(),
        async (planId, coupon, direct, holdsMain) => {
          const portal = fakePortal(happyPortal);
          const token = `token-${crypto.randomUUID()}`;
          if (holdsMain) await holdMainPurchase(token);
          const path = direct
            ? `/api/users/me/subscriptions/${planId}`
            : `/api/users/me/subscriptions/polling/${planId}`;
          const res = await freshApp({ portalFetch: portal.portalFetch })(
            path,
            postJson(
              { gateway: 'test', payment_method_nonce: 'pm_x', coupon, user_data: {} },
              { cookie: `gf_session=${token}`, 'cf-ipcountry': 'US' },
            ),
          );
          const charged = portal.seen.filter((request) => request.path.startsWith('/users/me/'));
          if (offered(planId, coupon, holdsMain)) {
            expect(charged).toHaveLength(1);
          } else {
            expect(charged).toEqual([]);
            expect(res.status).toBeGreaterThanOrEqual(400);
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
