/**
 * Every reason the worker answers an `/api` call itself, with its HTTP status. The code
 * travels in the body (`ApiErrorBody.code`) and in the request's log line. Shared so the islands
 * can tell the worker's own refusals (whose messages are for developers, never shown) from the
 * portal's errors. Kept free of imports: the islands' error texts load it with the page.
 */
export const WORKER_ERROR_STATUS = {
  invalid_request: 400,
  not_signed_in: 401,
  google_token_invalid: 401,
  cross_origin: 403,
  // A charge for anything the visitor's screens do not offer (worker/checkout/offer.ts).
  plan_not_offered: 403,
  coupon_not_offered: 403,
  main_purchase_required: 403,
  // A charge without the renewal consent the visitor's country asks for
  // (shared/plans/renewal-consent.ts, worker/checkout/offer.ts).
  renewal_consent_required: 403,
  // A consent that names other terms (amount, currency, plan) than the charge's: the offer ended
  // or the plan changed after the box was ticked (shared/plans/consent-terms.ts).
  renewal_consent_changed: 403,
  // A charge the purchase's attempt ledger or the retry governor refuses
  // (worker/purchase-ledger/charge-guard.ts, docs/payments.md "One charge per purchase").
  card_stopped: 402,
  // A charge on the other card provider after the one move to it was spent, or after a hard
  // decline or a 3-D Secure challenge closed it (worker/provider-routing/provider-pin.ts).
  provider_not_offered: 403,
  // A resend of a charge its provider kept failing, closed unpaid by the product API
  // (worker/provider-routing/stuck-attempt.ts): nothing was charged, and the other provider's form
  // is offered, or there is none to offer. The page takes it as the attempt's end.
  provider_failed_other_offered: 424,
  provider_failed_not_charged: 424,
  not_found: 404,
  // A polling id this session did not start, or one nobody did (worker/purchases/charge-owner.ts).
  polling_not_found: 404,
  method_not_allowed: 405,
  purchase_charged: 409,
  purchase_confirming: 409,
  provider_not_allowed: 409,
  // The declined page's move to the other provider, asked when the worker offered none.
  provider_switch_not_offered: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  payment_rate_limited: 429,
  card_retry_limit: 429,
  internal_error: 500,
  portal_unavailable: 502,
  portal_bad_response: 502,
  google_keys_unavailable: 502,
  geocoding_failed: 502,
  portal_not_configured: 503,
  // A charge neither the attempt ledger nor the retry governor could be asked about: refused
  // rather than sent unseen (worker/purchase-ledger/charge-guard.ts).
  payment_guard_unavailable: 503,
  // A charge that succeeded, kept neither in the events queue nor in EVENTS_DB: the visitor is
  // told nothing yet and asks again (worker/purchases/after-charge.ts).
  purchase_not_kept: 503,
  google_not_configured: 503,
  resume_not_configured: 503,
  geocoding_not_configured: 503,
  portal_timeout: 504,
} as const;

export type WorkerErrorCode = keyof typeof WORKER_ERROR_STATUS;

export function isWorkerErrorCode(code: string | null | undefined): code is WorkerErrorCode {
  return typeof code === 'string' && Object.hasOwn(WORKER_ERROR_STATUS, code);
}
