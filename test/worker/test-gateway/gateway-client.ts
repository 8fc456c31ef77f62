import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import {
  PollingResultResponse,
  PollingStartResponse,
  type SubscriptionRequest,
} from '../../../shared/api/contract';
import { RENEWAL_CONSENT_VERSION } from '../../../shared/plans/renewal-consent';
import {
  authenticatePath,
  TEST_GATEWAY_PATHS,
  type TokenizedCard,
  type VerifyAnswer,
} from '../../../shared/test-gateway-protocol';
import { freshApp } from '../fetch-app';
import { bearer, callPortal } from '../portal/portal-client';

/** The worker as the checkout's pages reach it: same-origin JSON POSTs. */
export const fetchWorker = freshApp();

export function postFromPage(
  path: string,
  body: unknown,
  fetchApp = fetchWorker,
): Promise<Response> {
  return fetchApp(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify(body),
  });
}

export const CARDS = {
  succeeds: '4242 4242 4242 4242',
  genericDecline: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  expired: '4000 0000 0000 0069',
  incorrectCvc: '4000 0000 0000 0127',
  processingError: '4000 0000 0000 0119',
  fraudulent: '4100 0000 0000 0019',
  velocityExceeded: '4000 0000 0000 6975',
  alwaysAuthenticate: '4000 0027 6000 3184',
  declinedAfterAuthentication: '4000 0084 0000 1629',
} as const;

const NEXT_YEAR = new Date().getUTCFullYear() + 1;

export function cardBody(number: string, overrides: Record<string, unknown> = {}) {
  return { number, exp_month: 12, exp_year: NEXT_YEAR, cvc: '123', ...overrides };
}

/** Tokenizes a card through the worker and answers its nonce (`tpm_…`). */
export async function tokenize(number: string): Promise<string> {
  const response = await postFromPage(TEST_GATEWAY_PATHS.paymentMethods, cardBody(number));
  expect(response.status).toBe(200);
  return ((await response.json()) as TokenizedCard).id;
}

export async function authenticate(intentId: string, outcome: 'complete' | 'fail') {
  const response = await postFromPage(authenticatePath(intentId), { outcome });
  expect(response.status).toBe(200);
  return response.json();
}

export async function verify(nonce: string, amount: string): Promise<VerifyAnswer> {
  const response = await postFromPage(TEST_GATEWAY_PATHS.verify, { nonce, amount });
  expect(response.status).toBe(200);
  return (await response.json()) as VerifyAnswer;
}

export function charge(
  nonce: string | null,
  overrides: Partial<SubscriptionRequest> = {},
): SubscriptionRequest {
  return {
    gateway: 'test',
    payment_method_nonce: nonce,
    coupon: null,
    payment_intent_id: null,
    // The checkout's plan data: `price` is the recurring price; the intro (6.99) is charged.
    user_data: { price: '39.99', currency: 'USD' },
    // Ticked, as the checkout sends it where the visitor's country asks for it (the US here).
    renewal_consent: { text_version: RENEWAL_CONSENT_VERSION, language: 'en' },
    ...overrides,
  };
}

export const PLAN = 'monthly_7d_intro_usd';

/** POST /users/me/subscriptions/polling/{plan} with results ready at once, and its result. */
export async function chargeByPolling(
  accessToken: string,
  body: SubscriptionRequest,
  headers: Record<string, string> = {},
  plan: string = PLAN,
) {
  const started = await callPortal(
    `/users/me/subscriptions/polling/${plan}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(accessToken), ...headers },
      body: JSON.stringify(body),
    },
    { PORTAL_POLLING_DELAY_MS: '0' },
  );
  expect(started.status).toBe(200);
  const pollingId = PollingStartResponse.parse(await started.json()).data.polling_result_id;
  const polled = await callPortal(`/polling/get-result/${pollingId}`);
  expect(polled.status).toBe(200);
  const result = PollingResultResponse.parse(await polled.json()).data.result_data;
  if (!result) throw new Error('a final polling result has result_data');
  return { pollingId, result };
}

/** POST /users/me/subscriptions/{plan} (the alternate gateway's direct call). */
export function chargeDirectly(accessToken: string, body: SubscriptionRequest) {
  return callPortal(`/users/me/subscriptions/${PLAN}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(accessToken) },
    body: JSON.stringify(body),
  });
}

export async function subscriptionRows(userId: string) {
  const { results } = await env.PORTAL_DB.prepare(
    'SELECT id, status, decline_code, payment_method FROM subscriptions WHERE user_id = ? ORDER BY created_at, rowid',
  )
    .bind(userId)
    .all<{ id: string; status: string; decline_code: string | null; payment_method: string }>();
  return results;
}
