import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollingStartResponse } from '../../../shared/api/contract';
import type { PlanFamilyId } from '../../../shared/plans/catalogue';
import { SCREEN_OFFERS, type SellingScreenId } from '../../../shared/plans/screen-offers';
import type { ScreenId } from '../../../shared/screens';
import type { AppOptions } from '../../../worker/app';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { developmentKit } from '../../../worker/dev/kit';
import { parsePins, pickVariant } from '../../../worker/experiments/assignment/assign';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { PREVIEW_COOKIE, signRoutePreview } from '../../../worker/preview/preview';
import { ACCOUNT_COOKIE } from '../../../worker/request/signed-in-user';
import { googleKeySet } from '../../../worker/session/google-keys';
import { previewHolder } from '../../fixtures/preview-holder';
import { unsigned } from '../../fixtures/signed-cookies';
import { googleClaims, jwksFetch, keySet, makeSigner } from '../api/google-token-fixture';
import { recordingQueue } from '../collector/recording-queue';
import { priceTest, section } from '../experiments/config/config-fixtures';
import { freshApp, putConfig } from '../fetch-app';
import { islandProps } from '../page-html';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, TICKED_RENEWAL_CONSENT } from './checkout-visitor';

/**
 * The offer is the contract: through `/api`, a visitor buys only what their screens offer them
 * (their flow's paywalls, checkouts and upsells, their route's or price-test arm's plans, each
 * with the coupon its screen shows), an upsell only after a main purchase; and a charge's result
 * is read, and its purchase recorded, only for the session that started it.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(
    ['split', 'flows', 'routing', 'experiments'].map((key) => env.FUNNEL_CONFIG.delete(key)),
  );
});

/** The embedded portal, remembering every charge and polling read it was asked for. */
function countingPortal() {
  const asked: string[] = [];
  const portalFetch: PortalFetch = (request, bindings, ctx) => {
    const path = new URL(request.url).pathname;
    if (/\/(users\/me\/subscriptions|polling\/get-result)\//.test(path)) asked.push(path);
    return developmentKit.portal(request, bindings, ctx);
  };
  return { asked, portalFetch };
}

let addresses = 0;

function shop(options: Pick<AppOptions, 'random' | 'googleKeys'> = {}) {
  const portal = countingPortal();
  const { queue, events: sent } = recordingQueue();
  const fetchApp = freshApp(
    { portalFetch: portal.portalFetch, ...options },
    { PORTAL_POLLING_DELAY_MS: '0', EVENTS_QUEUE: queue },
  );
  // Each from an address of its own, as the sign-up limit counts per address.
  const visitor = () => {
    addresses += 1;
    return checkoutVisitor({ fetchApp, ip: `198.51.100.${addresses}` });
  };
  return { fetchApp, visitor, asked: portal.asked, sent };
}

type Visitor = ReturnType<typeof checkoutVisitor>;

/** A charge as the islands send it: the card route (nonce) or the direct one, with a coupon. */
async function charge(
  visitor: Visitor,
  planId: string,
  options: {
    coupon?: string | null;
    direct?: boolean;
    nonce?: string | null;
    headers?: Record<string, string>;
  } = {},
) {
  const nonce =
    options.nonce === undefined ? await visitor.tokenize(CARDS.succeeds) : options.nonce;
  const path = options.direct
    ? `/api/users/me/subscriptions/${planId}`
    : `/api/users/me/subscriptions/polling/${planId}`;
  return visitor.call(
    path,
    {
      gateway: 'test',
      payment_method_nonce: nonce,
      coupon: options.coupon ?? null,
      payment_intent_id: null,
      user_data: {},
      renewal_consent: TICKED_RENEWAL_CONSENT,
    },
    { 'idempotency-key': crypto.randomUUID(), ...options.headers },
  );
}

async function expectNotSignedIn(res: Response) {
  expect(res.status).toBe(401);
  expect(await res.json()).toMatchObject({ code: 'not_signed_in' });
}

async function expectRefused(res: Response, code: string) {
  expect(res.status).toBe(403);
  expect(await res.json()).toEqual({ errors: { messages: [] }, code });
}

/** A flow of `screens` for everyone (the split's only variant walks 'default'). */
async function flowOf(screens: ScreenId[]) {
  await putConfig('split', DEFAULT_SPLIT);
  await putConfig('flows', {
    ...DEFAULT_FLOWS,
    flows: { ...DEFAULT_FLOWS.flows, default: screens },
  });
}

/** The plan ids and coupons a rendered screen hands its islands to pay with. */
function shownPlans(html: string): { planId: string; coupon: string | null }[] {
  type Details = { id: string; coupon: string | null };
  if (html.includes('data-island="PlanChoice"')) {
    const props = islandProps(html, 'PlanChoice') as { options: { details: Details }[] };
    return props.options.map(({ details }) => ({ planId: details.id, coupon: details.coupon }));
  }
  const props = islandProps(html, 'UpsellPurchase') as { offers: Record<string, Details> };
  return Object.values(props.offers).map((offer) => ({ planId: offer.id, coupon: offer.coupon }));
}

/** Buys the default checkout's plan and reads its result: the account holds a main plan. */
async function buyMainPlan(visitor: Visitor) {
  const [result] = await visitor.poll(await charge(visitor, 'monthly_7d_intro_usd'));
  expect(result?.status).toBe('succeeded');
}

describe('what a visitor may buy', () => {
  const MAIN = Object.keys(SCREEN_OFFERS).filter(
    (screen) => SCREEN_OFFERS[screen as SellingScreenId].sells === 'main',
  ) as SellingScreenId[];

  it.each(MAIN)('every plan %s shows is bought as shown; another is refused', async (screen) => {
    await flowOf(['signup', screen, 'success']);
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    const page = await visitor.call(`/${screen}`);
    expect(page.status).toBe(200);
    const shown = shownPlans(await page.text());
    expect(shown.length).toBeGreaterThan(0);
    await visitor.signUp();
    for (const { planId, coupon } of shown) {
      expect((await charge(visitor, planId, { coupon })).status).toBe(200);
    }
    expect(asked).toHaveLength(shown.length);
    // A plan of the catalogue no screen of this flow shows: the combo's 3-day or the 7-day.
    const other = shown.some((plan) => plan.planId === 'monthly_3d_intro_usd')
      ? 'quarterly_eur'
      : 'monthly_3d_intro_usd';
    await expectRefused(await charge(visitor, other), 'plan_not_offered');
    expect(asked).toHaveLength(shown.length);
  });

  it('the plans of the euro-area page are its EUR plans, not the USD ones', async () => {
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fromGermany = { headers: { 'cf-ipcountry': 'DE' } };
    expect((await charge(visitor, 'monthly_eur', fromGermany)).status).toBe(200);
    await expectRefused(await charge(visitor, 'monthly_usd', fromGermany), 'plan_not_offered');
    expect(asked).toHaveLength(1);
    // The refusal's warning says what was asked against what the screens showed, and where from.
    const warned = warn.mock.calls
      .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
      .find((line) => line.warning === 'plan_not_offered');
    expect(warned).toMatchObject({ plan: 'monthly_usd', country: 'DE' });
    expect(String(warned?.offered).split(' ')).toContain('monthly_eur');
  });

  it('a visitor from the UK sees pounds with the VAT note, pays in GBP, and no other currency', async () => {
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    const fromBritain = { headers: { 'cf-ipcountry': 'GB' } };
    const page = await visitor.call('/checkout_v3_tr', undefined, fromBritain.headers);
    const html = await page.text();
    const choice = islandProps(html, 'PlanChoice') as {
      options: { id: string; fullPrice: string; details: { currency: string } }[];
      taxNote: string;
    };
    expect(choice.options.map((option) => option.id)).toEqual([
      'monthly_7d_intro_gbp',
      'monthly_gbp',
      'quarterly_gbp',
    ]);
    expect(choice.options[0]).toMatchObject({ fullPrice: '£5.99', details: { currency: 'GBP' } });
    expect(choice.taxNote).toBe('Price includes VAT');
    expect(html).toContain('£34.99');
    expect(html).not.toContain('$6.99');
    await visitor.signUp();
    const paid = await charge(visitor, 'monthly_7d_intro_gbp', fromBritain);
    expect(paid.status).toBe(200);
    const [result] = await visitor.poll(paid);
    expect(result?.status).toBe('succeeded');
    // The charge request named its currency and price: the portal kept them.
    const row = await env.PORTAL_DB.prepare(
      'SELECT currency, price_id, price_with_discount FROM subscriptions ORDER BY created_at DESC LIMIT 1',
    ).first();
    expect(row).toEqual({
      currency: 'GBP',
      price_id: 'monthly_7d_intro_gbp',
      price_with_discount: 5.99,
    });
    // The same plan in dollars, or in euros, is refused: a forged plan of another currency.
    await expectRefused(
      await charge(visitor, 'monthly_7d_intro_usd', fromBritain),
      'plan_not_offered',
    );
    await expectRefused(
      await charge(visitor, 'monthly_7d_intro_eur', fromBritain),
      'plan_not_offered',
    );
    expect(asked.filter((path) => path.includes('/subscriptions/'))).toHaveLength(1);
  });

  it('a route’s currency table sets what a country pays in, on screen and at the charge', async () => {
    await putConfig('routing', {
      version: 'test',
      currencies: { US: 'CAD' },
      audiences: {},
      routes: [{ id: 'default', flow: 'default', currencies: { GB: 'USD' } }],
    });
    const { visitor: newVisitor } = shop();
    const british = newVisitor();
    const fromBritain = { 'cf-ipcountry': 'GB' };
    const page = await (await british.call('/checkout_v3_tr', undefined, fromBritain)).text();
    const shown = shownPlans(page).map((plan) => plan.planId);
    expect(shown).toContain('monthly_7d_intro_usd');
    expect(page).toContain('$6.99');
    await british.signUp();
    expect((await charge(british, 'monthly_7d_intro_usd', { headers: fromBritain })).status).toBe(
      200,
    );
    await expectRefused(
      await charge(british, 'monthly_7d_intro_gbp', { headers: fromBritain }),
      'plan_not_offered',
    );
    // The document's own table applies where the route says nothing: the US pays in CAD.
    const american = newVisitor();
    const usPage = await (await american.call('/checkout_v3_tr')).text();
    expect(shownPlans(usPage).map((plan) => plan.planId)).toContain('monthly_7d_intro_cad');
  });

  it('a variant that makes a country pay in another currency sells in that one', async () => {
    const variants = {
      a: { name: 'pounds', weight: 1, change: {} },
      b: { name: 'dollars', weight: 1, change: { currencies: { GB: 'USD' as const } } },
    };
    await putConfig('experiments', section({ 'gb-usd': priceTest({ audience: {}, variants }) }));
    // The draw 0.8 places the visitor in arm b.
    const { visitor: newVisitor } = shop({ random: () => 0.8 });
    const visitor = newVisitor();
    const fromBritain = { 'cf-ipcountry': 'GB' };
    const page = await (await visitor.call('/checkout_v3_tr', undefined, fromBritain)).text();
    expect(shownPlans(page).map((plan) => plan.planId)).toContain('monthly_7d_intro_usd');
    await visitor.signUp();
    await expectRefused(
      await charge(visitor, 'monthly_7d_intro_gbp', { headers: fromBritain }),
      'plan_not_offered',
    );
    expect((await charge(visitor, 'monthly_7d_intro_usd', { headers: fromBritain })).status).toBe(
      200,
    );
  });

  it('a plan outside the route’s plans is refused; the route’s own are sold', async () => {
    await putConfig('routing', {
      version: 'test',
      audiences: {},
      routes: [{ id: 'default', flow: 'default', plans: ['quarterly', 'monthly_5d_intro'] }],
    });
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    await expectRefused(await charge(visitor, 'monthly_7d_intro_usd'), 'plan_not_offered');
    await expectRefused(await charge(visitor, 'monthly_usd'), 'plan_not_offered');
    expect((await charge(visitor, 'monthly_5d_intro_usd')).status).toBe(200);
    expect((await charge(visitor, 'quarterly_usd', { direct: true })).status).toBe(200);
    expect(asked).toHaveLength(2);
  });

  it('a marketer previewing a route buys that route’s plans', async () => {
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    const token = await signRoutePreview(
      'geofunnel-development-preview-key',
      { id: 'draft_route', flow: 'lp17ch17pr5', plans: ['monthly_3d_intro'] },
      Math.floor(Date.now() / 1000) + 600,
      previewHolder(visitor.visitorId),
    );
    const previewing = { headers: { cookie: `${cookieOf(visitor)}; ${PREVIEW_COOKIE}=${token}` } };
    expect((await charge(visitor, 'monthly_3d_intro_usd', previewing)).status).toBe(200);
    await expectRefused(
      await charge(visitor, 'monthly_7d_intro_usd', previewing),
      'plan_not_offered',
    );
    expect(asked).toHaveLength(1);
  });

  it('a visitor holding a copy of the marketer’s preview cookie buys only their own plans', async () => {
    const { visitor: newVisitor, asked } = shop();
    const marketer = newVisitor();
    const token = await signRoutePreview(
      'geofunnel-development-preview-key',
      { id: 'draft_route', flow: 'lp17ch17pr5', plans: ['monthly_3d_intro'] },
      Math.floor(Date.now() / 1000) + 600,
      previewHolder(marketer.visitorId),
    );
    const visitor = newVisitor();
    await visitor.signUp();
    const copied = { headers: { cookie: `${cookieOf(visitor)}; ${PREVIEW_COOKIE}=${token}` } };
    await expectRefused(await charge(visitor, 'monthly_3d_intro_usd', copied), 'plan_not_offered');
    expect((await charge(visitor, 'monthly_7d_intro_usd', copied)).status).toBe(200);
    expect(asked).toHaveLength(1);
  });
});

describe('a route’s upsell and guide plans', () => {
  const UPSELL_FLOW: ScreenId[] = [
    'signup',
    'checkout_v3_tr',
    'upsell_an_private',
    'upsell_guide',
    'success',
  ];

  async function routeWithUpsellTiers() {
    await flowOf(UPSELL_FLOW);
    await putConfig('routing', {
      version: 'test',
      audiences: {},
      routes: [
        {
          id: 'default',
          flow: 'default',
          upsellPlans: ['upsell_quarterly_799', 'upsell_monthly_799'],
          guidePlans: ['guide_1799'],
        },
      ],
    });
  }

  it('are what its upsell and guide screens show, the first preselected, at their coupons', async () => {
    await routeWithUpsellTiers();
    const visitor = shop().visitor();
    const upsell = await (await visitor.call('/upsell_an_private')).text();
    expect(shownPlans(upsell)).toEqual([
      { planId: 'upsell_quarterly_799_usd', coupon: 'upsell_30' },
      { planId: 'upsell_monthly_799_usd', coupon: 'upsell_30' },
    ]);
    expect(islandProps(upsell, 'UpsellPurchase')).toMatchObject({
      defaultPlanId: 'upsell_quarterly_799_usd',
    });
    const guide = await (await visitor.call('/upsell_guide')).text();
    expect(shownPlans(guide)).toEqual([{ planId: 'guide_1799_usd', coupon: null }]);
    // The main plans stay the checkout's own.
    const checkout = await (await visitor.call('/checkout_v3_tr')).text();
    expect(shownPlans(checkout).map((plan) => plan.planId)).toEqual([
      'monthly_7d_intro_usd',
      'monthly_usd',
      'quarterly_usd',
    ]);
  });

  it('are chargeable after a main purchase; the screens’ own tiers and guide are refused', async () => {
    await routeWithUpsellTiers();
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    const upsell = { nonce: null, coupon: 'upsell_30' };
    await expectRefused(
      await charge(visitor, 'upsell_monthly_799_usd', upsell),
      'main_purchase_required',
    );
    await buyMainPlan(visitor);
    const before = asked.length;
    await expectRefused(
      await charge(visitor, 'upsell_monthly_999_usd', upsell),
      'plan_not_offered',
    );
    await expectRefused(
      await charge(visitor, 'upsell_monthly_599_usd', upsell),
      'plan_not_offered',
    );
    await expectRefused(
      await charge(visitor, 'upsell_monthly_799_usd', { nonce: null }),
      'coupon_not_offered',
    );
    await expectRefused(
      await charge(visitor, 'guide_899_usd', { nonce: null }),
      'plan_not_offered',
    );
    expect(asked).toHaveLength(before);
    const [tier] = await visitor.poll(await charge(visitor, 'upsell_monthly_799_usd', upsell));
    // SPEC.md §1: the upsell at 30% off, whichever tier: 7.99 × 0.7.
    expect(tier).toMatchObject({ status: 'succeeded', price_with_discount: 5.59 });
    const [guide] = await visitor.poll(await charge(visitor, 'guide_1799_usd', { nonce: null }));
    expect(guide?.status).toBe('succeeded');
  });

  it('a marketer previewing a route with upsell plans buys those', async () => {
    await flowOf(UPSELL_FLOW);
    const { visitor: newVisitor } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    await buyMainPlan(visitor);
    const token = await signRoutePreview(
      'geofunnel-development-preview-key',
      { id: 'draft_route', flow: 'default', plans: null, upsellPlans: ['upsell_monthly_599'] },
      Math.floor(Date.now() / 1000) + 600,
      previewHolder(visitor.visitorId),
    );
    const previewing = {
      nonce: null,
      coupon: 'upsell_30',
      headers: { cookie: `${cookieOf(visitor)}; ${PREVIEW_COOKIE}=${token}` },
    };
    await expectRefused(
      await charge(visitor, 'upsell_monthly_999_usd', previewing),
      'plan_not_offered',
    );
    expect((await charge(visitor, 'upsell_monthly_599_usd', previewing)).status).toBe(200);
  });
});

function cookieOf(visitor: Visitor): string {
  return [...visitor.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

describe('a price test’s arms cannot be crossed through /api', () => {
  const ARM_B: readonly PlanFamilyId[] = ['monthly_3d_intro', 'monthly', 'quarterly'];

  async function priceTestOnEveryone() {
    await putConfig('experiments', section({ 'pw-price': priceTest({ audience: {} }) }));
  }

  it('the control’s visitor cannot buy the variant’s cheaper intro', async () => {
    await priceTestOnEveryone();
    // The draw 0.2 places the visitor in arm a, the control: the 7-day intro at 6.99.
    const { visitor: newVisitor, asked } = shop({ random: () => 0.2 });
    const visitor = newVisitor();
    const page = await visitor.call('/checkout_v3_tr');
    expect(shownPlans(await page.text()).map((plan) => plan.planId)).toContain(
      'monthly_7d_intro_usd',
    );
    await visitor.signUp();
    await expectRefused(await charge(visitor, 'monthly_3d_intro_usd'), 'plan_not_offered');
    await expectRefused(
      await charge(visitor, 'monthly_3d_intro_usd', { direct: true }),
      'plan_not_offered',
    );
    expect(asked).toEqual([]);
    expect((await charge(visitor, 'monthly_7d_intro_usd')).status).toBe(200);
  });

  it('the variant’s visitor buys its plans and not the control’s', async () => {
    await priceTestOnEveryone();
    const { visitor: newVisitor, asked } = shop({ random: () => 0.8 });
    const visitor = newVisitor();
    const page = await visitor.call('/checkout_v3_tr');
    expect(shownPlans(await page.text()).map((plan) => plan.planId)).toEqual(
      ARM_B.map((family) => `${family}_usd`),
    );
    await visitor.signUp();
    await expectRefused(await charge(visitor, 'monthly_7d_intro_usd'), 'plan_not_offered');
    expect(asked).toEqual([]);
    expect((await charge(visitor, 'monthly_3d_intro_usd')).status).toBe(200);
  });

  it('a page opened with skip_split=true offers the control, as it shows it', async () => {
    await priceTestOnEveryone();
    const { visitor: newVisitor } = shop({ random: () => 0.8 });
    const visitor = newVisitor();
    await visitor.signUp();
    const control = { headers: { referer: 'https://funnel.test/checkout_v3_tr?skip_split=true' } };
    expect((await charge(visitor, 'monthly_7d_intro_usd', control)).status).toBe(200);
    await expectRefused(await charge(visitor, 'monthly_3d_intro_usd', control), 'plan_not_offered');
  });
});

describe('a price test’s arm follows the account, not the browser', () => {
  const WEIGHTS = [
    ['a', 1],
    ['b', 1],
  ] as const;
  const PLAN_OF = { a: 'monthly_7d_intro_usd', b: 'monthly_3d_intro_usd' } as const;

  /** The arm the price test's hash gives an id, whether a visitor's or an account's. */
  const armOf = (id: string) => pickVariant('E-2d81aa', id, WEIGHTS) as 'a' | 'b';
  const otherArm = (arm: 'a' | 'b') => (arm === 'a' ? 'b' : 'a');

  /** The user id the account cookie names (its value before the signature: `<id>~<hash>`). */
  function accountOf(visitor: Visitor): string {
    const value = unsigned(visitor.cookies.get(ACCOUNT_COOKIE));
    const userId = value?.split('~')[0];
    if (!userId) throw new Error(`no account cookie: ${value}`);
    return userId;
  }

  /** A browser whose own id draws `arm`. */
  function browserDrawing(newVisitor: () => Visitor, arm: 'a' | 'b'): Visitor {
    for (;;) {
      const visitor = newVisitor();
      if (armOf(visitor.cookies.get('userUuid')!) === arm) return visitor;
    }
  }

  /** A shop with the price test on everyone, where visitors sign in with one Google account. */
  async function googleShop(
    account: { email: string; sub?: string } = { email: 'grace@example.com' },
  ) {
    await putConfig('experiments', section({ 'pw-price': priceTest({ audience: {} }) }));
    const google = await makeSigner('google-2026-a');
    // Current by the wall clock, which the pages' offer deadline also reads.
    const issued = Math.floor(Date.now() / 1000) - 30;
    const credential = await google.sign(
      googleClaims({ ...account, iat: issued, exp: issued + 3600 }),
    );
    const shopping = shop({ googleKeys: googleKeySet({ fetch: jwksFetch(keySet(google)).fetch }) });
    const signInWithGoogle = async (visitor: Visitor) => {
      const res = await visitor.call('/api/authorize_social_via_access_token', {
        access_token: credential,
        driver: 'google',
      });
      expect(res.status).toBe(200);
    };
    return { ...shopping, signInWithGoogle };
  }

  it('a session kept under another userUuid is signed out, not charged in that id’s arms', async () => {
    await putConfig('experiments', section({ 'pw-price': priceTest({ audience: {} }) }));
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    await visitor.call('/checkout_v3_tr');
    // The same cookies with another visitor's id: the token is the product API's and still good.
    visitor.cookies.set('userUuid', crypto.randomUUID());
    await expectNotSignedIn(await charge(visitor, 'monthly_3d_intro_usd'));
    expect(visitor.cookies.get('gf_session')).toBe('');
    expect(asked).toEqual([]);
    // Signed out, the next call carries no token at all.
    await expectNotSignedIn(await charge(visitor, 'monthly_7d_intro_usd'));
  });

  it('an account keeps its arm in another browser whose own id and pin draw the other', async () => {
    const { visitor: newVisitor, signInWithGoogle } = await googleShop();
    const first = newVisitor();
    await signInWithGoogle(first);
    const account = accountOf(first);
    const arm = armOf(account);
    // Exposed on the checkout, in the account's arm, pinned to the account, not the browser.
    expect(shownPlans(await (await first.call('/checkout_v3_tr')).text())[0]?.planId).toBe(
      PLAN_OF[arm],
    );
    expect(parsePins(unsigned(first.cookies.get('gf_ax'))).get('pw-price')).toBe(arm);
    expect(parsePins(unsigned(first.cookies.get('gf_x'))).has('pw-price')).toBe(false);

    // Another browser, its own id drawing the other arm, exposed to it before signing in.
    const second = browserDrawing(newVisitor, otherArm(arm));
    await second.call('/checkout_v3_tr');
    expect(parsePins(unsigned(second.cookies.get('gf_x'))).get('pw-price')).toBe(otherArm(arm));
    await signInWithGoogle(second);
    expect(accountOf(second)).toBe(account);
    const page = await (await second.call('/checkout_v3_tr')).text();
    expect(shownPlans(page)[0]?.planId).toBe(PLAN_OF[arm]);
    await expectRefused(await charge(second, PLAN_OF[otherArm(arm)]), 'plan_not_offered');
    expect((await charge(second, PLAN_OF[arm])).status).toBe(200);
  });

  it('a signed-in charge checks each signed cookie once: the account for its arm and its session', async () => {
    // An account of its own: one that bought before would be refused a second main plan.
    const { visitor: newVisitor, signInWithGoogle } = await googleShop({
      email: 'lin@example.com',
      sub: '220169484474386276335',
    });
    const visitor = newVisitor();
    await signInWithGoogle(visitor);
    await visitor.call('/checkout_v3_tr');
    const nonce = await visitor.tokenize(CARDS.succeeds);
    // Every signature checked while the charge is answered, by the name of the cookie it signs
    // (worker/signing.ts signs `<name>\n<visitor id>\n<value>`).
    const verify = vi.spyOn(crypto.subtle, 'verify');
    const charged = await charge(visitor, PLAN_OF[armOf(accountOf(visitor))], { nonce });
    const checked = verify.mock.calls.map(([, , , message]) =>
      new TextDecoder().decode(message as Uint8Array),
    );
    verify.mockRestore();
    expect(charged.status, await charged.clone().text()).toBe(200);
    const names = checked.map((message) => message.split('\n')[0]);
    // The experiments read the account for the price test's arm, the call for its session.
    expect(names.filter((name) => name === ACCOUNT_COOKIE)).toEqual([ACCOUNT_COOKIE]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('an account cookie or account pins copied into another browser count for nothing', async () => {
    const { visitor: newVisitor, signInWithGoogle } = await googleShop();
    const owner = newVisitor();
    await signInWithGoogle(owner);
    const arm = armOf(accountOf(owner));
    await owner.call('/checkout_v3_tr');
    const stranger = browserDrawing(newVisitor, otherArm(arm));
    await stranger.signUp();
    for (const name of [ACCOUNT_COOKIE, 'gf_ax']) {
      stranger.cookies.set(name, owner.cookies.get(name)!);
    }
    const page = await (await stranger.call('/checkout_v3_tr')).text();
    // The copied account cookie is not signed for this browser: no account, the browser's arm.
    expect(shownPlans(page)[0]?.planId).toBe(PLAN_OF[otherArm(arm)]);
    // And the stranger's own session is not the one the copied cookie names.
    await expectNotSignedIn(await charge(stranger, PLAN_OF[otherArm(arm)]));
  });
});

describe('upsells and coupons', () => {
  it('an upsell is not sold first, on either route', async () => {
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    const upsell = { coupon: 'upsell_30', nonce: null };
    await expectRefused(
      await charge(visitor, 'upsell_monthly_999_usd', upsell),
      'main_purchase_required',
    );
    await expectRefused(
      await charge(visitor, 'upsell_quarterly_999_usd', { ...upsell, direct: true }),
      'main_purchase_required',
    );
    expect(asked).toEqual([]);
  });

  it('after a main purchase, the upsell is sold with its coupon, and with that one only', async () => {
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    await buyMainPlan(visitor);
    const before = asked.length;
    await expectRefused(
      await charge(visitor, 'upsell_monthly_999_usd', { nonce: null }),
      'coupon_not_offered',
    );
    await expectRefused(
      await charge(visitor, 'upsell_monthly_999_usd', { nonce: null, coupon: 'upsell_90' }),
      'coupon_not_offered',
    );
    expect(asked).toHaveLength(before);
    const [result] = await visitor.poll(
      await charge(visitor, 'upsell_monthly_999_usd', { nonce: null, coupon: 'upsell_30' }),
    );
    expect(result).toMatchObject({ status: 'succeeded', price_with_discount: 6.99 });
  });

  it('another account’s main purchase buys this one no upsell', async () => {
    const { visitor: newVisitor } = shop();
    const buyer = newVisitor();
    await buyer.signUp();
    await buyMainPlan(buyer);
    const other = newVisitor();
    await other.signUp();
    await expectRefused(
      await charge(other, 'upsell_monthly_999_usd', { nonce: null, coupon: 'upsell_30' }),
      'main_purchase_required',
    );
  });

  it('the upsell’s coupon on a main plan, or a made-up one, is refused', async () => {
    const { visitor: newVisitor, asked } = shop();
    const visitor = newVisitor();
    await visitor.signUp();
    for (const coupon of ['upsell_30', 'WELCOME50', 'upsell_30 ']) {
      await expectRefused(await charge(visitor, 'monthly_usd', { coupon }), 'coupon_not_offered');
    }
    expect(asked).toEqual([]);
  });
});

describe('a charge belongs to the session that started it', () => {
  async function startedCharge(fetchAppShop: ReturnType<typeof shop>) {
    const buyer = fetchAppShop.visitor();
    await buyer.signUp();
    const started = await charge(buyer, 'monthly_7d_intro_usd');
    const pollingId = PollingStartResponse.parse(await started.clone().json()).data
      .polling_result_id;
    return { buyer, started, pollingId };
  }

  async function verifiedCount(): Promise<number> {
    const row = await env.EVENTS_DB.prepare('SELECT count(*) AS n FROM verified_purchases').first<{
      n: number;
    }>();
    return row?.n ?? 0;
  }

  it('another session reading its polling id gets the unknown id’s answer, and nothing is recorded', async () => {
    const store = shop();
    const recordedBefore = await verifiedCount();
    const { buyer, started, pollingId } = await startedCharge(store);
    const intruder = store.visitor();
    await intruder.signUp();
    const polls = store.asked.length;
    const stolen = await intruder.call(`/api/polling/get-result/${pollingId}`);
    const unknown = await intruder.call('/api/polling/get-result/no-such-charge-4711');
    const anonymous = await store.fetchApp(`/api/polling/get-result/${pollingId}`);
    for (const answer of [stolen, unknown, anonymous]) {
      expect(answer.status).toBe(404);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(await answer.json()).toEqual({ errors: { messages: [] }, code: 'polling_not_found' });
    }
    // Someone who copied the buyer's visitor id, but not the buyer's session, is no buyer.
    const copied = await store.fetchApp(`/api/polling/get-result/${pollingId}`, {
      headers: { cookie: `userUuid=${buyer.visitorId}` },
    });
    expect(copied.status).toBe(404);
    expect(store.asked).toHaveLength(polls);
    expect(await verifiedCount()).toBe(recordedBefore);
    expect(store.sent).toEqual([]);

    // The buyer reads it, and the purchase is theirs.
    const [result] = await buyer.poll(started);
    expect(result?.status).toBe('succeeded');
    expect(store.sent.map((message) => message.event.device_id)).toEqual([buyer.visitorId]);
    // Read again by the intruder after it is final: still nothing.
    expect((await intruder.call(`/api/polling/get-result/${pollingId}`)).status).toBe(404);
    expect(store.sent).toHaveLength(1);
  });

  it('a memo written before owners were kept is read by whoever asks (the rule of before)', async () => {
    const store = shop();
    const { buyer, pollingId } = await startedCharge(store);
    const namespace = env.RATE_LIMITER;
    const memo = { card: null, planId: 'monthly_7d_intro_usd', coupon: null };
    await namespace
      .get(namespace.idFromName(`charged_card:${pollingId}`))
      .remember(JSON.stringify(memo), 60_000);
    const other = store.visitor();
    expect((await other.call(`/api/polling/get-result/${pollingId}`)).status).toBe(200);
    expect(buyer.visitorId).not.toBe(other.visitorId);
  });
});
