import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hex } from '../../../shared/hex';
import { PLAN_CATALOGUE, PLAN_FAMILIES, type PlanFamilyId } from '../../../shared/plans/catalogue';
import { COUPONS } from '../../../shared/plans/coupons';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { sessionCookies } from '../../fixtures/signed-cookies';
import { fakePortal, happyPortal, postJson } from '../api/fake-portal';
import { freshApp, putConfig } from '../fetch-app';
import { TICKED_RENEWAL_CONSENT } from './checkout-visitor';

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
              {
                gateway: 'test',
                payment_method_nonce: 'pm_x',
                coupon,
                user_data: {},
                renewal_consent: TICKED_RENEWAL_CONSENT,
              },
              { cookie: await sessionCookies(token), 'cf-ipcountry': 'US' },
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

describe('a hand-made charge call on a route with upsell tiers and a guide of its own', () => {
  const families = (role: 'upsell' | 'guide') =>
    (Object.keys(PLAN_FAMILIES) as PlanFamilyId[]).filter(
      (family) => PLAN_FAMILIES[family].role === role,
    );
  const FLOW = ['signup', 'checkout_v3_tr', 'upsell_an_private', 'upsell_guide', 'success'];

  afterEach(async () => {
    await Promise.all(['split', 'flows', 'routing'].map((key) => env.FUNNEL_CONFIG.delete(key)));
  });

  it('is forwarded, after a main purchase, only for the route’s tiers at 30% off and its guide', async () => {
    await putConfig('split', DEFAULT_SPLIT);
    await putConfig('flows', {
      ...DEFAULT_FLOWS,
      flows: { ...DEFAULT_FLOWS.flows, default: FLOW },
    });
    let version = 0;
    let forwarded = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(families('upsell'), { minLength: 1, maxLength: 2 }),
        fc.option(fc.constantFrom(...families('guide')), { nil: undefined }),
        // Any catalogue plan, or (often) one of the route's own tiers or its guide.
        fc.oneof(
          fc.constantFrom(...PLAN_CATALOGUE.map((plan) => plan.id)),
          fc.constantFrom('route_tier', 'route_guide'),
        ),
        fc.oneof(coupons, fc.constant('upsell_30')),
        async (upsellPlans, guide, picked, coupon) => {
          const planId =
            picked === 'route_tier'
              ? `${upsellPlans[0]}_usd`
              : picked === 'route_guide'
                ? `${guide ?? 'guide_1799'}_usd`
                : picked;
          version += 1;
          const route: Record<string, unknown> = { id: 'default', flow: 'default', upsellPlans };
          if (guide) route.guidePlans = [guide];
          await putConfig('routing', { version, audiences: {}, routes: [route] });
          const portal = fakePortal(happyPortal);
          const token = `token-${crypto.randomUUID()}`;
          await holdMainPurchase(token);
          await freshApp({ portalFetch: portal.portalFetch })(
            `/api/users/me/subscriptions/polling/${planId}`,
            postJson(
              {
                gateway: 'test',
                payment_method_nonce: null,
                coupon,
                user_data: {},
                renewal_consent: TICKED_RENEWAL_CONSENT,
              },
              { cookie: await sessionCookies(token), 'cf-ipcountry': 'US' },
            ),
          );
          const sent = coupon ? coupon : null;
          // The oracle, written out: the checkout's three plans without a coupon, the route's
          // tiers with the upsell's coupon, its guide (or the screen's own) without one.
          const tiers = upsellPlans.map((family) => `${family}_usd`);
          const guideId = `${guide ?? 'guide_899'}_usd`;
          const expected =
            (MAIN.has(planId) && sent === null) ||
            (tiers.includes(planId) && sent === 'upsell_30') ||
            (planId === guideId && sent === null);
          const charged = portal.seen.filter((request) => request.path.startsWith('/users/me/'));
          expect(charged).toHaveLength(expected ? 1 : 0);
          if (expected) forwarded += 1;
        },
      ),
      { numRuns: 40 },
    );
    // The property saw charges let through, not only refusals.
    expect(forwarded).toBeGreaterThan(0);
  });
});
