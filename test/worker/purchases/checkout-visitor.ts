import { expect } from 'vitest';
import { PollingResultResponse, PollingStartResponse } from '../../../shared/api/contract';
import { type PlanId, planById } from '../../../shared/plans/catalogue';
import { consentTermsOf } from '../../../shared/plans/consent-terms';
import { couponByCode } from '../../../shared/plans/coupons';
import { RENEWAL_CONSENT_VERSION } from '../../../shared/plans/renewal-consent';
import { TEST_GATEWAY_PATHS, type TokenizedCard } from '../../../shared/test-gateway-protocol';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { freshApp, ORIGIN, runPageScript } from '../fetch-app';
import { CARDS, cardBody } from '../test-gateway/gateway-client';

export const PLAN = 'monthly_7d_intro_usd';

/**
 * The renewal consent a US visitor's checkout sent once its box was ticked, before consents named
 * their terms: still taken while the visitor's offer runs.
 */
export const TICKED_RENEWAL_CONSENT = { text_version: RENEWAL_CONSENT_VERSION, language: 'en' };

/** The consent a US visitor's checkout sends with the box ticked beside `planId`'s terms. */
export function consentFor(planId: PlanId, coupon: string | null = null) {
  return {
    ...TICKED_RENEWAL_CONSENT,
    terms: consentTermsOf(planById(planId), couponByCode(coupon)),
  };
}

/**
 * The plan data the checkout sends as `user_data` for PLAN (screens/plans/plan-copy.ts): `price`
 * is the recurring price; what the first charge takes (6.99) is the portal's to say.
 */
export const PLAN_DATA = { price: '39.99', periodPrice: '6.99', currency: 'USD' };

/** Stripe's documented test cards that decline, each a card of its own (its own fingerprint). */
export const DECLINING_CARDS = [
  CARDS.genericDecline,
  CARDS.insufficientFunds,
  CARDS.expired,
  CARDS.incorrectCvc,
  '4000 0000 0000 9987',
  '4000 0000 0000 9979',
] as const;

/**
 * A browser on the checkout, through the development worker with the embedded portal and the
 * test gateway: its cookies kept across calls, same-origin like the islands, from one address.
 */
export function checkoutVisitor(
  options: {
    queue?: Queue<QueuedEvent>;
    ip?: string;
    fetchApp?: ReturnType<typeof freshApp>;
    /** Cookies other scripts wrote (a pixel's), sent after the worker's, as a header part. */
    otherCookies?: string;
    /** The visitor's `userUuid`; a fresh one unless a test needs it fixed. */
    visitorId?: string;
    /** The checkout page the calls come from (their `Referer`): its `?theme=` is the brand. */
    page?: string;
    /** The browser's Accept-Language; none unless a test needs one. */
    acceptLanguage?: string;
  } = {},
) {
  const fetchApp =
    options.fetchApp ??
    freshApp(
      {},
      {
        PORTAL_POLLING_DELAY_MS: '0',
        ...(options.queue ? { EVENTS_QUEUE: options.queue } : {}),
      },
    );
  const visitorId = options.visitorId ?? crypto.randomUUID();
  const cookies = new Map<string, string>([['userUuid', visitorId]]);
  const cookieHeader = () =>
    [...[...cookies].map(([name, value]) => `${name}=${value}`), options.otherCookies]
      .filter(Boolean)
      .join('; ');
  async function call(path: string, body?: unknown, headers: Record<string, string> = {}) {
    const sent = {
      'cf-connecting-ip': options.ip ?? '203.0.113.9',
      ...headers,
    };
    const response = await fetchApp(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        cookie: cookieHeader(),
        referer: options.page ?? `${ORIGIN}/checkout_v3_tr?gclid=g-1`,
        ...(options.acceptLanguage ? { 'accept-language': options.acceptLanguage } : {}),
        'cf-connecting-ip': options.ip ?? '203.0.113.9',
        'cf-ipcountry': 'US',
        ...(body === undefined
          ? {}
          : { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    // A page's script runs, as in the visitor's browser: it confirms the page's exposures.
    if (body === undefined)
      await runPageScript(fetchApp, response, { cookie: cookieHeader(), headers: sent });
    return response;
  }

  /** Signs up with a new address (or `email`), and answers the address. */
  async function signUp(email = `buyer-${crypto.randomUUID()}@example.test`): Promise<string> {
    const signedUp = await call('/api/signup', { registration_source: 'email', email });
    expect(signedUp.status).toBeLessThan(300);
    return email;
  }

  async function tokenize(number: string): Promise<string> {
    const card = await call(TEST_GATEWAY_PATHS.paymentMethods, cardBody(number));
    expect(card.status).toBe(200);
    return ((await card.json()) as TokenizedCard).id;
  }

  /** POST the subscription as the checkout does; null pays with the card on file (upsells). */
  function subscribe(
    nonce: string | null,
    key: string = crypto.randomUUID(),
    plan = PLAN,
    userData: Record<string, unknown> = PLAN_DATA,
    coupon: string | null = null,
  ) {
    return call(
      `/api/users/me/subscriptions/polling/${plan}`,
      {
        gateway: 'test',
        payment_method_nonce: nonce,
        coupon,
        payment_intent_id: null,
        user_data: userData,
        // Ticked, as the checkout sends it for this US visitor (shared/plans/renewal-consent.ts).
        renewal_consent: TICKED_RENEWAL_CONSENT,
      },
      { 'idempotency-key': key },
    );
  }

  async function poll(started: Response, times = 1) {
    const body = await started.json();
    const parsed = PollingStartResponse.safeParse(body);
    if (!parsed.success) {
      // Say what the worker answered instead (a refusal's code), not only that it was no start.
      throw new Error(`the charge did not start: ${started.status} ${JSON.stringify(body)}`);
    }
    const pollingId = parsed.data.data.polling_result_id;
    const results = [];
    for (let n = 0; n < times; n += 1) {
      const polled = await call(`/api/polling/get-result/${pollingId}`);
      results.push(PollingResultResponse.parse(await polled.json()).data.result_data);
    }
    return results;
  }

  /** One attempt with a card: tokenize, POST, and read the result if the POST was let through. */
  async function pay(number: string | null) {
    const nonce = number === null ? null : await tokenize(number);
    const started = await subscribe(nonce);
    if (started.status !== 200) return { started, result: null };
    const [result] = await poll(started);
    return { started, result };
  }

  return { call, cookies, visitorId, signUp, tokenize, subscribe, poll, pay };
}
