/**
 * What the product API tells the worker about a subscription after its first payment: a renewal,
 * a refund, a chargeback, a cancellation or a failed renewal, one signed `POST` each (worker/lifecycle/). Declared
 * once for its three users: the worker reads it, the embedded portal's commands
 * (`npm run portal -- renew …`, scripts/portal.ts) send it, and docs/product-api.md documents it for the
 * real product API.
 */

/** Outside `/api` (the browser's backend): a server-to-server call that no page makes. */
export const LIFECYCLE_PATH = '/hooks/subscription-events';

/**
 * Where the product API asks the worker for a fresh manage link for its emails, signed as its
 * events are (worker/subscriber-links/link-request-route.ts).
 */
export const SUBSCRIBER_LINK_REQUEST_PATH = '/hooks/subscriber-links';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, Stripe's webhook scheme
 * (worker/lifecycle/signature.ts), with one `v1` per secret while a secret is being rolled.
 */
export const LIFECYCLE_SIGNATURE_HEADER = 'Geofunnel-Signature';

/**
 * `renewal_failed`: a renewal's charge was declined; the worker answers it with a signed
 * `recover` link for the product API's email (docs/product-api.md), and the next `renewal` of the
 * subscription counts as recovered revenue.
 */
export const LIFECYCLE_EVENT_TYPES = [
  'renewal',
  'refund',
  'chargeback',
  'cancellation',
  'renewal_failed',
] as const;
export type LifecycleEventType = (typeof LIFECYCLE_EVENT_TYPES)[number];

/** An event id is the product API's, kept for idempotency: bounded so the ledger stays small. */
export const MAX_EVENT_ID_LENGTH = 100;
/** Likewise the subscription id (the product API's own, `sub_…`). */
export const MAX_SUBSCRIPTION_ID_LENGTH = 200;

/**
 * The body of one event. Amounts are decimal major units with an ISO 4217 code, as the product
 * API's other answers give them (SPEC.md §7 `price_with_discount`, `currency`): a refund's or a
 * chargeback's amount is what went back, positive. A cancellation moves no money: its amount is
 * 0 or null and its currency null. Extra fields are taken and noted, never refused.
 */
export interface LifecycleEventBody {
  /** Unique per event, the same on every retry of it: the endpoint counts it once. */
  id: string;
  type: LifecycleEventType;
  subscription_id: string;
  amount: number | null;
  currency: string | null;
  /** When it happened, an ISO 8601 instant with its offset: `2026-11-22T08:00:00Z`. */
  occurred_at: string;
  /**
   * The try of this billing period the event is about, the first 1 (optional): a
   * `renewal_failed`'s charges tried so far, a renewal that paid a failed one 2 or more.
   */
  attempt_count?: number;
  /** The card's brand on a renewal, refund or chargeback, as the provider names it (optional). */
  card_brand?: string;
  /** A `renewal_failed`'s decline code, as the provider named it (optional). */
  decline_code?: string;
  /**
   * The card a renewal or a `renewal_failed` charged, as its provider fingerprints it (Stripe's
   * `card.fingerprint`; optional): the worker's retry governor counts the merchant-initiated
   * attempt against that card, as the networks do.
   */
  card_fingerprint?: string;
  /** A `renewal_failed`'s network codes: Visa's response code, Mastercard's advice code. */
  network_decline_code?: string;
  network_advice_code?: string;
}

/**
 * A 2xx answer. 200 `recorded`: passed to the experiments' results (counted where the buyer was
 * exposed). 200 `duplicate`: this event id was taken before; nothing changed. 202 `recorded:
 * false`: the subscription's purchase is not known here (bought before the endpoint existed, or
 * not through the funnel), so there is nothing to count it against; do not send it again.
 */
export type LifecycleAnswer = (
  | { recorded: true }
  | { duplicate: true }
  | { recorded: false; reason: 'unknown_subscription' }
) &
  RecoverLinkAnswer;

/**
 * Every 2xx answer to a `renewal_failed` adds `recover_url`: the subscriber's page that pays what
 * is due (`/subscription/<token>`, a signed `recover` link, 30 days), for the product API's email.
 * A fresh link each time, so a retried delivery still gets one. Where the worker kept the brand
 * and language the subscription was bought in, `brand` and `language` name them: the page wears
 * them, and the email can too.
 */
export interface RecoverLinkAnswer {
  recover_url?: string;
  brand?: string;
  language?: string;
}
