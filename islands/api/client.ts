import type { z } from 'zod';
import {
  API_CALLS,
  type ApiCallName,
  apiPath,
  BrowserSignupResponse,
  CountryResponse,
  DeeplinkResponse,
  DirectSubscriptionResponse,
  PaymentSettingsResponse,
  PhoneInfoResponse,
  PollingResultResponse,
  PollingStartResponse,
  type SignupRequest,
  type SocialSignInRequest,
  type SubscriptionRequest,
} from '../../shared/api/contract';
import { ApiFailure, apiRequest } from '../../shared/api/request';

/**
 * The browser's calls of SPEC.md §7. The worker is the only backend the page talks to: each call
 * goes to the same path under `/api` (ARCHITECTURE.md), which forwards it to the portal and keeps
 * the access token in an HttpOnly cookie the page never sees. Every answer is checked against the
 * contract; a failure rejects with an ApiFailure, which shared/api/error-text.ts turns into what
 * the visitor reads.
 */

/** Lets a unit test answer instead of the network. */
export interface CallOptions {
  fetch?: typeof fetch;
}

/** The same-origin URL of a §7 call. */
export function apiUrl(call: ApiCallName, params: Record<string, string> = {}): string {
  return `/api${apiPath(API_CALLS[call].path, params)}`;
}

async function data<T>(promise: Promise<{ data: T }>): Promise<T> {
  return (await promise).data;
}

/** POST /api/signup (SPEC.md §7): the new account, its token kept by the worker. */
export function signUp(body: SignupRequest, options: CallOptions = {}) {
  return data(apiRequest(apiUrl('signup'), { body, schema: BrowserSignupResponse, ...options }));
}

/** POST /api/authorize_social_via_access_token (SPEC.md §7): same answer as signUp. */
export function signInWithSocialToken(body: SocialSignInRequest, options: CallOptions = {}) {
  return data(
    apiRequest(apiUrl('socialSignIn'), { body, schema: BrowserSignupResponse, ...options }),
  );
}

/** GET /api/users/me/payments-settings (SPEC.md §7), for the signed-in visitor. */
export function getPaymentSettings(options: CallOptions = {}) {
  return data(
    apiRequest(apiUrl('paymentSettings'), { schema: PaymentSettingsResponse, ...options }),
  );
}

/** GET /api/users/me/deeplink-qr-code (SPEC.md §7), for the signed-in visitor. */
export function getDeeplink(options: CallOptions = {}) {
  return data(apiRequest(apiUrl('deeplink'), { schema: DeeplinkResponse, ...options }));
}

/** GET /api/cf-country (SPEC.md §7). */
export function getCountry(options: CallOptions = {}) {
  return data(apiRequest(apiUrl('country'), { schema: CountryResponse, ...options }));
}

/** GET /api/phone-number-info/{phone} (SPEC.md §7), the number in E.164. */
export function getPhoneInfo(e164: string, options: CallOptions = {}) {
  return data(
    apiRequest(apiUrl('phoneInfo', { phone: e164 }), { schema: PhoneInfoResponse, ...options }),
  );
}

/**
 * A subscription POST. `Idempotency-Key` makes it safe to repeat: the portal answers a repeated
 * key with the first charge instead of charging again.
 */
function postSubscription<T>(
  call: 'pollingSubscription' | 'directSubscription',
  schema: z.ZodType<T>,
  request: { planId: string; body: SubscriptionRequest; idempotencyKey: string },
  options: CallOptions,
): Promise<T> {
  return data(
    apiRequest(apiUrl(call, { planId: request.planId }), {
      body: request.body,
      schema,
      headers: { 'Idempotency-Key': request.idempotencyKey },
      ...options,
    }),
  );
}

/**
 * POST /api/users/me/subscriptions/polling/{planId} (SPEC.md §7): starts the card provider's
 * charge and answers the polling id to read its result from.
 */
export function startPollingSubscription(
  planId: string,
  body: SubscriptionRequest,
  idempotencyKey: string,
  options: CallOptions = {},
) {
  const request = { planId, body, idempotencyKey };
  return postSubscription('pollingSubscription', PollingStartResponse, request, options);
}

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
  const checked = PollingResultResponse.safeParse(body);
  if (!checked.success) throw new ApiFailure('shape', status, body);
  return { status, data: checked.data };
}

/**
 * POST /api/users/me/subscriptions/{planId} (SPEC.md §7): the alternate provider's charge,
 * answered at once. 'User action required' comes back as a failure whose body carries the nonce
 * to verify (ApiErrorBody.data).
 */
export function createDirectSubscription(
  planId: string,
  body: SubscriptionRequest,
  idempotencyKey: string,
  options: CallOptions = {},
) {
  const request = { planId, body, idempotencyKey };
  return postSubscription('directSubscription', DirectSubscriptionResponse, request, options);
}
