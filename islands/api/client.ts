import type {
  BrowserDeeplinkResponse,
  BrowserSignupResponse,
  CountryResponse,
  DirectSubscriptionResponse,
  PaymentSettingsResponse,
  PhoneInfoResponse,
  PollingResultResponse,
  PollingStartResponse,
  SignupRequest,
  SocialSignInRequest,
  SubscriptionRequest,
} from '../../shared/api/contract';
import { GEOCODE_API_PATH, type GeocodeAnswer } from '../../shared/api/geocode';
import { API_PATHS, type ApiCallName, apiPath } from '../../shared/api/paths';
import { ApiFailure, apiRequest, hasObjectFields } from '../../shared/api/request';

/**
 * The browser's calls of SPEC.md §7. The worker is the only backend the page talks to: each call
 * goes to the same path under `/api` (ARCHITECTURE.md), which forwards it to the portal and keeps
 * the access token in an HttpOnly cookie the page never sees. The worker checks every answer
 * against the contract and re-serialises it, so the page takes the contract's types and checks
 * only that an answer is the object it expects (`expects`), not its every field: that would take
 * zod into the browser. A failure rejects with an ApiFailure, which shared/api/error-text.ts
 * turns into what the visitor reads.
 */

/** Lets a unit test answer instead of the network. */
export interface CallOptions {
  fetch?: typeof fetch;
}

/** The same-origin URL of a §7 call. */
export function apiUrl(call: ApiCallName, params: Record<string, string> = {}): string {
  return `/api${apiPath(API_PATHS[call], params)}`;
}

async function data<T>(promise: Promise<{ data: T }>): Promise<T> {
  return (await promise).data;
}

/** A sign-in answer names the account the islands go on with. */
const ACCOUNT = ['data.entity'];

/** POST /api/signup (SPEC.md §7): the new account, its token kept by the worker. */
export function signUp(body: SignupRequest, options: CallOptions = {}) {
  return data(
    apiRequest<BrowserSignupResponse>(apiUrl('signup'), { body, expects: ACCOUNT, ...options }),
  );
}

/** POST /api/authorize_social_via_access_token (SPEC.md §7): same answer as signUp. */
export function signInWithSocialToken(body: SocialSignInRequest, options: CallOptions = {}) {
  return data(
    apiRequest<BrowserSignupResponse>(apiUrl('socialSignIn'), {
      body,
      expects: ACCOUNT,
      ...options,
    }),
  );
}

/** The §7 answers that wrap what they carry in `data`. */
const DATA = ['data'];

/** GET /api/users/me/payments-settings (SPEC.md §7), for the signed-in visitor. */
export function getPaymentSettings(options: CallOptions = {}) {
  return data(
    apiRequest<PaymentSettingsResponse>(apiUrl('paymentSettings'), { expects: [], ...options }),
  );
}

/** GET /api/users/me/deeplink-qr-code (SPEC.md §7), for the signed-in visitor. */
export function getDeeplink(options: CallOptions = {}) {
  return data(
    apiRequest<BrowserDeeplinkResponse>(apiUrl('deeplink'), { expects: DATA, ...options }),
  );
}

/** GET /api/cf-country (SPEC.md §7). */
export function getCountry(options: CallOptions = {}) {
  return data(apiRequest<CountryResponse>(apiUrl('country'), { expects: [], ...options }));
}

/** GET /api/phone-number-info/{phone} (SPEC.md §7), the number in E.164. */
export function getPhoneInfo(e164: string, options: CallOptions = {}) {
  return data(
    apiRequest<PhoneInfoResponse>(apiUrl('phoneInfo', { phone: e164 }), {
      expects: DATA,
      ...options,
    }),
  );
}

/**
 * GET /api/geocode (shared/api/geocode.ts): the point of a city in a country, geocoded by the
 * worker with a key the page never sees (SPEC.md §7 Geocoding).
 */
export async function getGeocode(city: string, country: string, options: CallOptions = {}) {
  const query = new URLSearchParams({ city, country });
  const answer = await apiRequest<GeocodeAnswer>(`${GEOCODE_API_PATH}?${query}`, {
    expects: ['location'],
    ...options,
  });
  return answer.data.location;
}

/**
 * A subscription POST for a plan. `Idempotency-Key` makes it safe to repeat: the portal answers a
 * repeated key with the first charge instead of charging again.
 */
function subscriptionPost<T>(call: 'pollingSubscription' | 'directSubscription') {
  return (
    planId: string,
    body: SubscriptionRequest,
    idempotencyKey: string,
    options: CallOptions = {},
  ): Promise<T> =>
    data(
      apiRequest<T>(apiUrl(call, { planId }), {
        body,
        expects: DATA,
        headers: { 'Idempotency-Key': idempotencyKey },
        ...options,
      }),
    );
}

/**
 * POST /api/users/me/subscriptions/polling/{planId} (SPEC.md §7): starts the card provider's
 * charge and answers the polling id to read its result from.
 */
export const startPollingSubscription =
  subscriptionPost<PollingStartResponse>('pollingSubscription');

/** A polling answer with its HTTP status: 202 means the charge is not final yet (SPEC.md §7). */
export interface PollingResultAnswer {
  status: number;
  data: PollingResultResponse;
}

/** SPEC.md §7: what a pending (202) answer carries is not read, so any body will do. */
const PENDING: PollingResultResponse = { data: { result_data: null } };

/**
 * GET /api/polling/get-result/{pollingId} (SPEC.md §7; no bearer, §6). Resolves for 202 as well
 * as 200; the caller repeats the call while the status is 202.
 */
export async function getPollingResult(
  pollingId: string,
  options: CallOptions = {},
): Promise<PollingResultAnswer> {
  const { status, data: body } = await apiRequest(apiUrl('pollingResult', { pollingId }), options);
  if (status === 202) return { status, data: PENDING };
  // A final answer carries its result, or null; anything else is not the worker's answer.
  const result = hasObjectFields(body, DATA)
    ? (body as { data: Record<string, unknown> }).data.result_data
    : undefined;
  if (result !== null && !hasObjectFields(result, [])) throw new ApiFailure('shape', status, body);
  return { status, data: body as PollingResultResponse };
}

/**
 * POST /api/users/me/subscriptions/{planId} (SPEC.md §7): the alternate provider's charge,
 * answered at once. 'User action required' comes back as a failure whose body carries the nonce
 * to verify (ApiErrorBody.data).
 */
export const createDirectSubscription =
  subscriptionPost<DirectSubscriptionResponse>('directSubscription');
