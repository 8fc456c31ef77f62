/**
 * The path of each call of SPEC.md §7, with `:param` placeholders: the portal's path, which the
 * browser calls under `/api`. The contract's table of calls (shared/api/contract.ts) takes its
 * paths from here; they live apart so the islands can name a call without loading zod.
 */
export const API_PATHS = {
  signup: '/signup',
  socialSignIn: '/authorize_social_via_access_token',
  paymentSettings: '/users/me/payments-settings',
  deeplink: '/users/me/deeplink-qr-code',
  country: '/cf-country',
  phoneInfo: '/phone-number-info/:phone',
  pollingSubscription: '/users/me/subscriptions/polling/:planId',
  pollingResult: '/polling/get-result/:pollingId',
  directSubscription: '/users/me/subscriptions/:planId',
} as const;

export type ApiCallName = keyof typeof API_PATHS;

/** Fills `:param` placeholders, each value URI-encoded. */
export function apiPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`apiPath: missing parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}
