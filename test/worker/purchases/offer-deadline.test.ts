import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlanId } from '../../../shared/plans/catalogue';
import { signCookie } from '../../../worker/signing';
import { putConfig } from '../fetch-app';
import { islandProps } from '../page-html';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, consentFor, TICKED_RENEWAL_CONSENT } from './checkout-visitor';

/**
 * The offer countdown tells the truth (SPEC.md §4: 300 s): the worker fixes the visitor's
 * deadline on the first page that shows it and keeps it in `gf_offer`, signed for the visitor;
 * a reload shows what is left; past it, the page and the charge are at the regular prices; a
 * cookie the worker did not sign ends the offer rather than extending it.
 */

/** The development key the cookies are signed with where no secret is set. */
const DEVELOPMENT_COOKIE_KEY = 'geofunnel-development-cookie-key';

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await env.FUNNEL_CONFIG.delete('routing');
});

let addresses = 0;
function visitor() {
  addresses += 1;
  return checkoutVisitor({ ip: `198.51.100.${addresses}` });
}
type Visitor = ReturnType<typeof visitor>;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A `gf_offer` the worker would have written for `visitorId`, ending at `deadline`. */
function deadlineCookie(visitorId: string, deadline: number) {
  return signCookie(DEVELOPMENT_COOKIE_KEY, 'gf_offer', visitorId, String(deadline));
}

async function checkout(buyer: Visitor) {
  const page = await buyer.call('/checkout_v3_tr');
  expect(page.status).toBe(200);
  return { html: await page.text(), setCookies: page.headers.getSetCookie() };
}

const timerOf = (html: string) => /role="timer"[^>]*>([^<]*)</.exec(html)?.[1];
type Choice = { options: { id: string; summary: { total: string } }[]; afterOffer?: unknown };
const choiceOf = (html: string) => islandProps(html, 'PlanChoice') as unknown as Choice;

async function charge(
  buyer: Visitor,
  planId: PlanId,
  coupon: string | null = null,
  consent: unknown = consentFor(planId, coupon),
) {
  return buyer.call(
    `/api/users/me/subscriptions/polling/${planId}`,
    {
      gateway: 'test',
      payment_method_nonce: await buyer.tokenize(CARDS.succeeds),
      coupon,
      payment_intent_id: null,
      user_data: {},
      // Ticked beside the plan's terms, as this US visitor's checkout sends it
      // (shared/plans/renewal-consent.ts).
      renewal_consent: consent,
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
}

async function subscriptionCount(email: string): Promise<number> {
  const row = await env.PORTAL_DB.prepare(
    'SELECT COUNT(*) AS n FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = ?',
  )
    .bind(email)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function expectRefused(res: Response, code: string) {
  expect(res.status).toBe(403);
  expect(await res.json()).toMatchObject({ code });
}

describe('the offer deadline', () => {
  it('is not fixed for a marketer’s preview, but is for a browser its cookie was copied into', async () => {
    const marketer = visitor();
    expect((await marketer.call('/console/preview/default')).status).toBe(303);
    const previewed = await checkout(marketer);
    expect(previewed.html).toContain('Preview of variant');
    expect(previewed.setCookies.some((cookie) => cookie.startsWith('gf_offer='))).toBe(false);
    // The copy is no preview: its holder's offer ends like anyone's, so it cannot be kept open.
    const copier = visitor();
    copier.cookies.set('gf_preview', marketer.cookies.get('gf_preview') ?? '');
    const copied = await checkout(copier);
    expect(copied.html).not.toContain('Preview of variant');
    expect(copied.setCookies.some((cookie) => cookie.startsWith('gf_offer='))).toBe(true);
    expect(copied.setCookies).toContainEqual(expect.stringMatching(/^gf_preview=; Max-Age=0/));
  });

  it('is fixed once, on the first page that shows the countdown, and kept on reload', async () => {
    const buyer = visitor();
    const first = await checkout(buyer);
    expect(timerOf(first.html)).toBe('05:00');
    const set = first.setCookies.find((cookie) => cookie.startsWith('gf_offer='));
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/Secure/i);
    const [value = ''] = (buyer.cookies.get('gf_offer') ?? '').split('.');
    expect(Number(value) - nowSeconds()).toBeGreaterThan(295);
    expect(Number(value) - nowSeconds()).toBeLessThanOrEqual(300);
    // The reload (or the page after a decline) shows what is left, and sets nothing new.
    buyer.cookies.set('gf_offer', await deadlineCookie(buyer.visitorId, nowSeconds() + 125));
    const again = await checkout(buyer);
    expect(timerOf(again.html)).toMatch(/^02:0[45]$/);
    expect(again.setCookies.some((cookie) => cookie.startsWith('gf_offer='))).toBe(false);
    expect(choiceOf(again.html).afterOffer).toBeDefined();
  });

  it('past the deadline, the page shows and the charge takes the regular price', async () => {
    const buyer = visitor();
    await buyer.signUp();
    buyer.cookies.set('gf_offer', await deadlineCookie(buyer.visitorId, nowSeconds() - 1));
    const { html } = await checkout(buyer);
    expect(html).toContain('This offer has ended');
    expect(timerOf(html)).toBeUndefined();
    const choice = choiceOf(html);
    expect(choice.options.map((option) => option.id)).toEqual(['monthly_usd', 'quarterly_usd']);
    expect(choice.options[0]?.summary.total).toBe('$39.99');
    await expectRefused(await charge(buyer, 'monthly_7d_intro_usd'), 'plan_not_offered');
    const [result] = await buyer.poll(await charge(buyer, 'monthly_usd'));
    expect(result).toMatchObject({ status: 'succeeded', price_with_discount: 39.99 });
    // The upsell's 30% off ends with it.
    await expectRefused(
      await charge(buyer, 'upsell_monthly_999_usd', 'upsell_30'),
      'coupon_not_offered',
    );
  });

  it('once it has passed, a consent ticked beside the trial charges nothing at the regular price', async () => {
    const buyer = visitor();
    const email = await buyer.signUp();
    buyer.cookies.set('gf_offer', await deadlineCookie(buyer.visitorId, nowSeconds() - 1));
    // The box was ticked beside "$6.99 today, then $39.99"; the page then offered $39.99 today.
    for (const agreed of [consentFor('monthly_7d_intro_usd'), TICKED_RENEWAL_CONSENT]) {
      const refused = await charge(buyer, 'monthly_usd', null, agreed);
      await expectRefused(refused, 'renewal_consent_changed');
    }
    expect(await subscriptionCount(email)).toBe(0);
    const [result] = await buyer.poll(await charge(buyer, 'monthly_usd'));
    expect(result).toMatchObject({ status: 'succeeded', price_with_discount: 39.99 });
  });

  it.each([
    [
      'edited to a later deadline',
      async (id: string) =>
        `${nowSeconds() + 3600}.${(await deadlineCookie(id, nowSeconds() - 1)).split('.')[1]}`,
    ],
    ['signed for another visitor', () => deadlineCookie(crypto.randomUUID(), nowSeconds() + 3600)],
    ['typed by hand', () => String(nowSeconds() + 3600)],
  ] as const)('a cookie %s ends the offer instead of extending it', async (_, forge) => {
    const buyer = visitor();
    await buyer.signUp();
    buyer.cookies.set('gf_offer', await forge(buyer.visitorId));
    await expectRefused(await charge(buyer, 'monthly_7d_intro_usd'), 'plan_not_offered');
    const { html, setCookies } = await checkout(buyer);
    expect(html).toContain('This offer has ended');
    // Replaced by one that ends now, so it is reported once and never brings the offer back.
    expect(setCookies.some((cookie) => cookie.startsWith('gf_offer='))).toBe(true);
    const [value = ''] = (buyer.cookies.get('gf_offer') ?? '').split('.');
    expect(Number(value)).toBeLessThanOrEqual(nowSeconds());
    expect(timerOf((await checkout(buyer)).html)).toBeUndefined();
  });

  it('a route with the countdown off shows none, fixes none and never ends the offer', async () => {
    await putConfig('routing', {
      version: 'test',
      audiences: {},
      routes: [{ id: 'default', flow: 'default', countdown: false }],
    });
    const buyer = visitor();
    await buyer.signUp();
    const { html, setCookies } = await checkout(buyer);
    expect(html.includes('class="offer-banner')).toBe(false);
    expect(setCookies.some((cookie) => cookie.startsWith('gf_offer='))).toBe(false);
    expect(choiceOf(html).afterOffer).toBeUndefined();
    buyer.cookies.set('gf_offer', await deadlineCookie(buyer.visitorId, nowSeconds() - 1));
    expect((await charge(buyer, 'monthly_7d_intro_usd')).status).toBe(200);
  });
});
