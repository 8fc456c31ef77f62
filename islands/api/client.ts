import {
  API_CALLS,
  type ApiCallName,
  apiPath,
  BrowserSignupResponse,
  CountryResponse,
  DeeplinkResponse,
  PaymentSettingsResponse,
  PhoneInfoResponse,
  type SignupRequest,
  type SocialSignInRequest,
} from '../../shared/api/contract';
import { apiRequest } from '../../shared/api/request';

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
