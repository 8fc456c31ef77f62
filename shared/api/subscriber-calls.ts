import * as z from 'zod';
import { REASON_KEY } from '../save-offer-reasons';
import {
  amount,
  type Field,
  isoTime,
  listOf,
  lowerCaseWord,
  nonEmptyText,
  object,
  oneOf,
  optional,
  required,
  text,
} from './answer-fields';
import type { ApiCall } from './contract';

/**
 * The product API's calls behind the subscriber's page (`/subscription/<token>`,
 * worker/subscriber-links/): read the subscription, cancel it, and claim the money-back
 * guarantee. Ours, beyond SPEC.md §7 (docs/product-api.md, "The subscriber's page"). Only the
 * worker makes them, server to server, after it has checked the signed link that names the
 * subscription; no page calls them and no visitor's bearer token goes with them (an email opens
 * anywhere, without the funnel's session). So the product API can tell them from anyone's,
 * each carries `Geofunnel-Signature` (./hook-signature.ts, Stripe's scheme, under the secret
 * the lifecycle hook uses, LIFECYCLE_HMAC_KEY) over `subscriberCallText` below: the method and
 * path are signed with the body, so a signed call cannot be replayed on another subscription or
 * as another action, and no lifecycle event's signature passes for one. The embedded portal
 * (portal/routes/subscriber.ts) checks it as a product API should.
 */

export const SUBSCRIBER_CALL_NAMES = [
  'subscriptionRead',
  'subscriptionCancel',
  'guaranteeClaim',
  'payDue',
  'cardUpdate',
  'saveOfferTake',
] as const;
export type SubscriberCallName = (typeof SUBSCRIBER_CALL_NAMES)[number];

/**
 * The brand (a theme: `geozilla`, `family-locator`, `brainbloom`, `findo`) and language the
 * subscription was bought in, on every action the page asks for where its link carries them
 * (worker/subscriber-links/link-token.ts): what the product API sends about the action (a
 * confirmation, a receipt) can wear them, as the page did. Absent: unknown.
 */
export const PURCHASE_LOOK = {
  brand: z.string().min(1).max(32).optional(),
  language: z.string().min(2).max(10).optional(),
};

/** A cancel or a claim names why, for the product API's records, and the purchase's look. */
const ActionRequest = z.strictObject({
  /** Where it was asked: the subscriber's page (the only source today). */
  source: z.literal('subscriber_page'),
  /**
   * A cancel's reason for leaving, as the subscriber picked it from the marketer's list
   * (shared/config/content.ts `saveOffer.reasons`, its key); absent when none was picked.
   */
  reason: z.string().regex(REASON_KEY).optional(),
  ...PURCHASE_LOOK,
});

/**
 * Take the save offer's action instead of cancelling (docs/product-api.md, "Save offer
 * actions"): a coupon on the next renewals, a pause, or a switch to a cheaper plan. `experiment`
 * and `variant` name the save offer test arm that offered it, for the product API's records.
 */
const SaveOfferTarget = {
  source: z.literal('subscriber_page'),
  experiment: z.string().min(1).max(64).optional(),
  variant: z.string().min(1).max(64).optional(),
  ...PURCHASE_LOOK,
};
export const SaveOfferTakeRequest = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('discount'),
    percent_off: z.int().min(1).max(100),
    renewals: z.int().min(1).max(12),
    ...SaveOfferTarget,
  }),
  z.strictObject({ action: z.literal('pause'), months: z.int().min(1).max(3), ...SaveOfferTarget }),
  z.strictObject({
    action: z.literal('switch'),
    plan_id: z.string().min(1).max(64),
    ...SaveOfferTarget,
  }),
]);
export type SaveOfferTakeRequest = z.infer<typeof SaveOfferTakeRequest>;

/**
 * What taking a save offer came to: the subscription renews (`status`), when next
 * (`renews_at`, after a pause's end), at what (`renewal_amount` in `currency`, the coupon
 * applied, or the new plan's), on which plan; `paused_until` the day a pause ends. A refusal is
 * a 4xx: 409 `offer_taken` when the subscription took a save offer within the last 12 months,
 * 422 `not_applicable` when the action does not fit it (not renewing, not a cheaper plan).
 */
export const SaveOfferTakeAnswer = z.object({
  data: z.object({
    status: z.string(),
    renews_at: z.string().nullable(),
    renewal_amount: z.number().nullable(),
    currency: z.string().nullable(),
    plan_id: z.string().nullable(),
    paused_until: z.string().nullable(),
  }),
});
export type SaveOfferTakeAnswer = z.infer<typeof SaveOfferTakeAnswer>;

/**
 * A renewing add-on bought with the subscription (an upsell of shared/plans/catalogue.ts, role
 * `upsell`, that renews): its own subscription in the product API, which the subscriber's page
 * lists under the plan and cancels or refunds on its own (docs/payments.md, "The subscriber's
 * page"). Its fields mean what the subscription's do.
 */
export const SubscriptionAddOn = z.object({
  subscription_id: z.string(),
  plan_id: z.string().nullable(),
  status: z.string(),
  currency: z.string().nullable(),
  paid_amount: z.number().nullable(),
  charged_at: z.string().nullable(),
  renewal_amount: z.number().nullable(),
  renews_at: z.string().nullable(),
  ends_at: z.string().nullable(),
});
export type SubscriptionAddOn = z.infer<typeof SubscriptionAddOn>;

/**
 * The subscription as the page shows it. Amounts are decimal major units and times ISO 8601, as
 * the product API's other answers give them. `status`: `active` (renews), `canceled` (ends at
 * `ends_at`, nothing more is charged), `refunded` (the guarantee's money went back; ended).
 */
export const SubscriptionAnswer = z.object({
  data: z.object({
    subscription_id: z.string(),
    status: z.string(),
    plan_id: z.string().nullable(),
    currency: z.string().nullable(),
    /** What the first charge took. */
    paid_amount: z.number().nullable(),
    /** When the first charge was taken: the guarantee's days count from it. */
    charged_at: z.string().nullable(),
    /** What each renewal takes, and when the next one is; null once nothing more renews. */
    renewal_amount: z.number().nullable(),
    renews_at: z.string().nullable(),
    /** For a canceled subscription: the end of what was paid for. */
    ends_at: z.string().nullable(),
    card_brand: z.string().nullable(),
    card_last4: z.string().nullable(),
    wallet: z.string().nullable(),
    /**
     * What a failed renewal left to pay, in major units of `currency`; null (or absent) when
     * nothing is due. A recovery link's page asks for it (`POST …/pay-due`).
     */
    amount_due: z.number().nullable(),
    /**
     * Which failed renewal is due (an invoice's id, say): the worker's attempt ledger names the
     * due by it, so whichever link pays it, the due is paid once. Null (or absent) when the
     * product API names none: then one due per subscription at a time.
     */
    due_id: z.string().nullable(),
    /**
     * The card provider's public settings for paying what is due (SPEC.md §7 payment settings):
     * the gateway (`stripe`, `braintree`, `test`), Stripe's publishable key, Braintree's client
     * token. Null (or absent) when the product API names none: the page then offers Stripe's
     * fields with no key, which say the card form could not load.
     */
    payment_gateway: z.string().nullable(),
    stripe_publishable_key: z.string().nullable(),
    braintree_client_token: z.string().nullable(),
    /**
     * The renewing add-ons the same buyer took beside it, each its own subscription (empty, or
     * absent, when there are none). The page acts on one only when the read of the subscription
     * its link names lists it.
     */
    add_ons: z.array(SubscriptionAddOn),
  }),
});
export type SubscriptionAnswer = z.infer<typeof SubscriptionAnswer>;

/** What a cancel or a claim came to: the subscription's status after it, and when it ends. */
export const SubscriberActionAnswer = z.object({
  data: z.object({
    status: z.string(),
    ends_at: z.string().nullable(),
    /** A claim's: what went back, in major units of `currency`. */
    refunded_amount: z.number().nullable(),
    currency: z.string().nullable(),
  }),
});
export type SubscriberActionAnswer = z.infer<typeof SubscriberActionAnswer>;

/**
 * Pay what a failed renewal left due, with a card the subscriber just entered (a provider's
 * payment method), as the direct charge takes one (SPEC.md §7): `gateway` names the provider;
 * after a 3-D Secure challenge the same call is repeated with `payment_intent_id`.
 */
export const PayDueRequest = z.strictObject({
  gateway: z.string().min(1).max(40),
  payment_method_nonce: z.string().min(1).max(255),
  payment_intent_id: z.string().min(1).max(255).optional(),
});
export type PayDueRequest = z.infer<typeof PayDueRequest>;

/**
 * Pay what is due with the card the subscription has on file (the one a manage link's Update
 * card just saved), as an upsell charges the card on file: no nonce, the same 3-D Secure repeat.
 */
const PayDueOnFileRequest = z.strictObject({
  gateway: z.string().min(1).max(40),
  card_on_file: z.literal(true),
  payment_intent_id: z.string().min(1).max(255).optional(),
});

/** What a pay-due call may carry: a card just entered, or the card on file. */
export const PayDueCall = z.union([PayDueRequest, PayDueOnFileRequest]);
export type PayDueCall = z.infer<typeof PayDueCall>;

/**
 * What a payment of the due came to, as the direct charge answers: `succeeded` with what was
 * taken and the card, or `requires_action` with the 3-D Secure challenge's secret. A decline is
 * a 4xx with `decline_code`, as the direct charge's. The card that paid becomes the one the
 * subscription renews with, and the paid period starts at the payment: `renews_at` is the next
 * renewal after it (null when the product API does not say).
 */
export const PayDueAnswer = z.object({
  data: z.object({
    status: z.enum(['succeeded', 'requires_action']),
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    card_brand: z.string().nullable(),
    card_last4: z.string().nullable(),
    payment_intent_secret: z.string().nullable(),
    renews_at: z.string().nullable(),
  }),
});
export type PayDueAnswer = z.infer<typeof PayDueAnswer>;

/**
 * What a card update came to: `updated` with the new card, or `requires_action` with the 3-D
 * Secure challenge's secret (a setup, not a charge). A decline is a 4xx with `decline_code`.
 */
export const CardUpdateAnswer = z.object({
  data: z.object({
    status: z.enum(['updated', 'requires_action']),
    card_brand: z.string().nullable(),
    card_last4: z.string().nullable(),
    payment_intent_secret: z.string().nullable(),
  }),
});
export type CardUpdateAnswer = z.infer<typeof CardUpdateAnswer>;

/** The calls: the portal's paths, the worker's only. */
export const SUBSCRIBER_CALLS = {
  subscriptionRead: {
    method: 'GET',
    path: '/subscriptions/:subscriptionId',
    auth: 'none',
    request: null,
    response: SubscriptionAnswer,
    timeoutMs: 10_000,
  },
  subscriptionCancel: {
    method: 'POST',
    path: '/subscriptions/:subscriptionId/cancel',
    auth: 'none',
    request: ActionRequest,
    response: SubscriberActionAnswer,
    timeoutMs: 15_000,
  },
  guaranteeClaim: {
    method: 'POST',
    path: '/subscriptions/:subscriptionId/guarantee-claim',
    auth: 'none',
    request: ActionRequest,
    response: SubscriberActionAnswer,
    timeoutMs: 20_000,
  },
  payDue: {
    method: 'POST',
    path: '/subscriptions/:subscriptionId/pay-due',
    auth: 'none',
    // The page's card post (PayDueCall, as the browser may send it) with the purchase's look.
    request: z.union([
      PayDueRequest.extend(PURCHASE_LOOK),
      PayDueOnFileRequest.extend(PURCHASE_LOOK),
    ]),
    response: PayDueAnswer,
    timeoutMs: 20_000,
  },
  /**
   * Change the card the subscription renews with, from a manage link's page: the same card body
   * as a pay-due (a provider's payment method, then `payment_intent_id` after 3-D Secure).
   * Nothing is charged: the card is set up for the renewals to come.
   */
  cardUpdate: {
    method: 'POST',
    path: '/subscriptions/:subscriptionId/payment-method',
    auth: 'none',
    request: PayDueRequest.extend(PURCHASE_LOOK),
    response: CardUpdateAnswer,
    timeoutMs: 20_000,
  },
  saveOfferTake: {
    method: 'POST',
    path: '/subscriptions/:subscriptionId/save-offer',
    auth: 'none',
    request: SaveOfferTakeRequest,
    response: SaveOfferTakeAnswer,
    timeoutMs: 15_000,
  },
} as const satisfies Record<SubscriberCallName, ApiCall>;

/** A call's path for one subscription (its id encoded for the path). */
export function subscriberCallPath(name: SubscriberCallName, subscriptionId: string): string {
  return SUBSCRIBER_CALLS[name].path.replace(':subscriptionId', encodeURIComponent(subscriptionId));
}

/**
 * What `Geofunnel-Signature` signs for one call, before the scheme's `<t>.`: the method, the
 * path with its encoded id, and the raw body (empty for a GET).
 */
export function subscriberCallText(method: string, path: string, body: string): string {
  return `${method} ${path}\n${body}`;
}

/** The most add-ons a read lists that the page shows: more than a buyer is ever offered. */
const ADD_ONS_SHOWN = 10;

/**
 * An add-on the page can act on names its subscription and says whether it renews: an entry
 * without either is dropped (and noted as drift), the others kept.
 */
const ADD_ONS_READ = listOf(
  {
    subscription_id: required(nonEmptyText),
    status: required(lowerCaseWord),
    plan_id: optional(nonEmptyText, null),
    currency: optional(nonEmptyText, null),
    paid_amount: optional(amount, null),
    charged_at: optional(nonEmptyText, null),
    renewal_amount: optional(amount, null, { null: true }),
    renews_at: optional(nonEmptyText, null, { null: true }),
    ends_at: optional(nonEmptyText, null, { absent: true, null: true }),
  },
  { limit: ADD_ONS_SHOWN, absent: true },
);

/**
 * How the worker reads the answers: only `status` is required (a page that cannot say whether
 * the subscription renews says nothing); every other field has a fallback the page can show
 * without (docs/product-api.md's table).
 */
export const SUBSCRIPTION_READ_ANSWER: Field<SubscriptionAnswer> = object({
  data: object({
    subscription_id: optional(nonEmptyText, ''),
    status: required(lowerCaseWord),
    plan_id: optional(nonEmptyText, null),
    currency: optional(nonEmptyText, null),
    paid_amount: optional(amount, null),
    charged_at: optional(nonEmptyText, null),
    renewal_amount: optional(amount, null),
    renews_at: optional(nonEmptyText, null),
    ends_at: optional(nonEmptyText, null, { absent: true, null: true }),
    card_brand: optional(lowerCaseWord, null, { null: true }),
    card_last4: optional(text, null, { null: true }),
    wallet: optional(lowerCaseWord, null, { absent: true, null: true }),
    amount_due: optional(amount, null, { absent: true, null: true }),
    due_id: optional(nonEmptyText, null, { absent: true, null: true }),
    payment_gateway: optional(lowerCaseWord, null, { absent: true, null: true }),
    stripe_publishable_key: optional(nonEmptyText, null, { absent: true, null: true }),
    braintree_client_token: optional(nonEmptyText, null, { absent: true, null: true }),
    add_ons: ADD_ONS_READ,
  }),
});

/** A cancel's or a claim's answer: a 2xx is done whatever its body says. */
export const SUBSCRIBER_ACTION_ANSWER: Field<SubscriberActionAnswer> = object({
  data: object({
    status: optional(lowerCaseWord, 'canceled'),
    ends_at: optional(nonEmptyText, null, { absent: true, null: true }),
    refunded_amount: optional(amount, null, { absent: true, null: true }),
    currency: optional(nonEmptyText, null, { absent: true, null: true }),
  }),
});

/** A save offer taken: a 2xx is taken whatever its body says; the page shows what it names. */
export const SAVE_OFFER_TAKE_ANSWER: Field<SaveOfferTakeAnswer> = object({
  data: object({
    status: optional(lowerCaseWord, 'active'),
    renews_at: optional(isoTime, null, { absent: true, null: true }),
    renewal_amount: optional(amount, null, { absent: true, null: true }),
    currency: optional(nonEmptyText, null, { absent: true, null: true }),
    plan_id: optional(nonEmptyText, null, { absent: true, null: true }),
    paused_until: optional(isoTime, null, { absent: true, null: true }),
  }),
});

/** A payment's answer: its status is what the page acts on; the rest it may show without. */
export const PAY_DUE_ANSWER: Field<PayDueAnswer> = object({
  data: object({
    status: required(oneOf(['succeeded', 'requires_action'] as const)),
    amount: optional(amount, null, { absent: true, null: true }),
    currency: optional(nonEmptyText, null, { absent: true, null: true }),
    card_brand: optional(lowerCaseWord, null, { absent: true, null: true }),
    card_last4: optional(text, null, { absent: true, null: true }),
    payment_intent_secret: optional(nonEmptyText, null, { absent: true, null: true }),
    renews_at: optional(isoTime, null, { absent: true, null: true }),
  }),
});

/** A card update's answer: its status is what the page acts on; the card it may show without. */
export const CARD_UPDATE_ANSWER: Field<CardUpdateAnswer> = object({
  data: object({
    status: required(oneOf(['updated', 'requires_action'] as const)),
    card_brand: optional(lowerCaseWord, null, { absent: true, null: true }),
    card_last4: optional(text, null, { absent: true, null: true }),
    payment_intent_secret: optional(nonEmptyText, null, { absent: true, null: true }),
  }),
});
