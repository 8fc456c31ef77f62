import { expect } from 'vitest';
import {
  BrowserSignupResponse,
  PollingResultResponse,
  PollingStartResponse,
} from '../../shared/api/contract';
import { TEST_GATEWAY_PATHS, type TokenizedCard } from '../../shared/test-gateway-protocol';
import type { BrowserSession } from './harness';
import { uniqueEmail } from './visitor-steps';

/**
 * A subscriber for the Chromium tests of what comes after the sale (the subscriber's page, the
 * recovery link), made without a browser: signed up and charged through the worker's API as the
 * checkout's script calls it (the same calls, cookies and same-origin headers), so no page is
 * loaded to reach the links those tests open. The checkout itself is walked in Chromium by
 * receipt.test.ts; these calls against the worker are test/worker/purchases/checkout-visitor.ts's.
 */

/** The plan a visitor on the default flow's checkout buys: the 7-day trial, $6.99, then $39.99. */
const TRIAL = 'monthly_7d_intro_usd';
/** What the checkout sends as `user_data` for it (screens/plans/plan-copy.ts). */
const TRIAL_DATA = { price: '39.99', periodPrice: '6.99', currency: 'USD' };

/** Signs a fresh visitor up and buys the trial with `card`; answers the portal's user id. */
export async function subscribedThroughApi(
  session: BrowserSession,
  label: string,
  card = '4242 4242 4242 4242',
): Promise<{ userId: string; email: string }> {
  const origin = session.worker.url.origin;
  const cookies = new Map<string, string>([['userUuid', crypto.randomUUID()]]);
  async function call(path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(new URL(path, origin), {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/json', origin }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  const email = uniqueEmail(label);
  const signedUp = await call('/api/signup', {
    registration_source: 'email',
    email,
    user_uuid: cookies.get('userUuid'),
    landing_type: 'one_pager',
  });
  expect(signedUp.status, 'the sign-up').toBe(200);
  const { data } = BrowserSignupResponse.parse(await signedUp.json());
  const userId = data.entity.external_user_id;
  if (userId === null) throw new Error('the sign-up named no user');

  const [month, year] = [12, new Date().getUTCFullYear() + 1];
  const tokenized = await call(TEST_GATEWAY_PATHS.paymentMethods, {
    number: card,
    exp_month: month,
    exp_year: year,
    cvc: '123',
  });
  expect(tokenized.status, 'the card tokenized').toBe(200);
  const { id: nonce } = (await tokenized.json()) as TokenizedCard;

  const started = await call(
    `/api/users/me/subscriptions/polling/${TRIAL}`,
    {
      gateway: 'test',
      payment_method_nonce: nonce,
      coupon: null,
      payment_intent_id: null,
      user_data: TRIAL_DATA,
      renewal_consent: null,
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
  const start = PollingStartResponse.parse(await started.json());
  // The harness's portal answers a charge at once (PORTAL_POLLING_DELAY_MS 0).
  const polled = await call(`/api/polling/get-result/${start.data.polling_result_id}`);
  const result = PollingResultResponse.parse(await polled.json()).data.result_data;
  expect(result?.status, 'the trial charged').toBe('succeeded');
  return { userId, email };
}
