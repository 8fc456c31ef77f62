import type { Answer } from '../http/answer';

/**
 * Every answer of the lifecycle endpoint other than 200 and 202, as `{ error, detail? }` JSON.
 * For the product API: a 401, 400, 413 or 422 will never be accepted as sent (fix the signature, the
 * clock or the body); a 409 `replayed` means this very signed request came before (sign each try
 * afresh); 409 `event_in_progress` and every 503 are worth retrying (Retry-After says when).
 */
export const LIFECYCLE_REFUSALS = {
  /** Not a POST. */
  method_not_allowed: 405,
  /** No LIFECYCLE_HMAC_KEY (or the development one outside development): nothing is verified. */
  lifecycle_not_configured: 503,
  /** Over MAX_EVENT_BYTES, declared or read. */
  payload_too_large: 413,
  /** No Geofunnel-Signature header. */
  missing_signature: 401,
  /** A header that is not `t=<unix seconds>,v1=<64 hex>[,v1=…]`; `detail` says what is wrong. */
  malformed_signature: 401,
  /** No `v1` signs this body at this `t` with our secret. */
  bad_signature: 401,
  /** Signed more than 5 minutes before or after our clock. */
  stale_signature: 401,
  /** Not JSON, or a field we need is missing or unusable; `detail` names it. */
  invalid_event: 400,
  /**
   * Signed, but its money does not fit its subscription (subscription-fit.ts): not counted, not
   * kept, so the same event id corrected is judged afresh. `currency_mismatch`: a renewal, refund
   * or chargeback in another currency than the verified purchase's.
   */
  currency_mismatch: 422,
  /** A refund or chargeback that, with those counted before, would return more than was paid. */
  refund_exceeds_paid: 422,
  /** This signature was seen before: the same request sent again. */
  replayed: 409,
  /** Another delivery of this event id is being recorded right now. */
  event_in_progress: 409,
  /**
   * A `renewal_failed` while no SUBSCRIBER_LINK_KEY is set: it could not be answered with its
   * recovery link, so it is not recorded; send it again once the key is set.
   */
  links_not_configured: 503,
  /** The ledger or the experiments failed: nothing was recorded, send it again. */
  lifecycle_unavailable: 503,
} as const;

export type LifecycleRefusalCode = keyof typeof LIFECYCLE_REFUSALS;

export interface LifecycleRefusal {
  error: LifecycleRefusalCode;
  detail?: string;
  /** Sent as Retry-After. */
  retryAfterSeconds?: number;
}

export function refuseEvent(c: Answer, refusal: LifecycleRefusal): Response {
  c.get('logFields').error = refusal.error;
  if (refusal.error === 'method_not_allowed') c.header('Allow', 'POST');
  if (refusal.retryAfterSeconds !== undefined) {
    c.header('Retry-After', String(refusal.retryAfterSeconds));
  }
  c.header('Cache-Control', 'no-store');
  const { retryAfterSeconds: _, ...body } = refusal;
  return c.json(body, LIFECYCLE_REFUSALS[refusal.error]);
}
