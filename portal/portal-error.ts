import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody } from '../shared/api/contract';

/**
 * Stable reasons for a failed portal call. The product API answers only `errors.messages`
 * (SPEC.md §7); `code` is ours, so logs and tests need not match on message text.
 */
export type PortalErrorCode =
  | 'invalid_body'
  | 'unauthenticated'
  | 'email_taken'
  | 'social_sign_in_failed'
  | 'phone_incorrect'
  | 'not_found'
  | 'deeplink_used'
  | 'idempotency_conflict'
  | 'emulated_failure'
  | 'internal'
  // Payments (portal/charges.ts): SPEC.md §4 Alternate provider with 3-D Secure, upsells.
  | 'user_action_required'
  | 'no_payment_method'
  | 'unknown_payment_method'
  /** The request names a currency its plan is not sold in (a product API charges no other). */
  | 'currency_mismatch'
  /** A declined charge of the direct call; the gateway's decline code goes in `decline_code`. */
  | 'payment_declined'
  /** A call of the subscriber's page without the worker's signature (portal/routes/subscriber.ts). */
  | 'bad_signature'
  /** The money-back guarantee's terms do not cover this subscription (shared/plans/guarantee.ts). */
  | 'guarantee_not_applicable'
  /** A pay-due call on a subscription with no unpaid failed renewal (portal/pay-due.ts). */
  | 'nothing_due'
  /** A card update on a subscription that was canceled or refunded (portal/card-update.ts). */
  | 'subscription_ended'
  /** A charge under an attempt the worker closed unpaid (shared/api/attempt-close.ts). */
  | 'attempt_closed'
  /** A save offer on a subscription that took one within the last 12 months (portal/save-offers.ts). */
  | 'offer_taken'
  /** A save offer that does not fit the subscription: it does not renew, or no cheaper plan. */
  | 'not_applicable';

/**
 * A failed call as a value: routes throw it, the app's error handler (portal/app.ts) answers it
 * with its status and the ApiErrorBody shape, so no route builds error JSON by hand.
 */
export class PortalError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: PortalErrorCode;
  readonly messages: readonly string[];
  /** SPEC.md §4: 'User action required' carries the nonce to verify and the amount. */
  readonly data: ApiErrorBody['data'];
  readonly declineCode: string | undefined;

  constructor(
    status: ContentfulStatusCode,
    code: PortalErrorCode,
    messages: string | string[],
    data?: ApiErrorBody['data'],
    declineCode?: string,
  ) {
    const list = typeof messages === 'string' ? [messages] : messages;
    super(list.join('; '));
    this.name = 'PortalError';
    this.status = status;
    this.code = code;
    this.messages = list;
    this.data = data;
    this.declineCode = declineCode;
  }

  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { errors: { messages: [...this.messages] }, code: this.code };
    if (this.data) body.data = this.data;
    if (this.declineCode) body.decline_code = this.declineCode;
    return body;
  }
}
