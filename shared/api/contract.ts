import * as z from 'zod';
import { ANSWER_KEY } from '../quiz/answers';
import { isHttpsLink } from './https-link';
import { API_PATHS, type ApiCallName } from './paths';

/**
 * The product API of SPEC.md §7, declared once. Three users read it:
 * - the embedded portal (`portal/`) answers with these shapes;
 * - the worker's `/api/*` (`worker/api/`) validates what the browser sends, and reads what the
 *   portal answers by ./portal-answers.ts (tolerant of what a real product API may send) into
 *   the answer shapes here before passing it on;
 * - the islands' client (`islands/api/`) takes the types of what the worker answers; it does not
 *   parse them again, as the worker has checked and re-serialised every answer (no zod in the
 *   browser).
 *
 * Paths are the portal's; the worker serves the same paths under `/api`.
 */

/**
 * SPEC.md §7: a failed call answers `errors.messages`. `code` is ours: a stable reason for logs and
 * tests.
 */
/**
 * Ours, beyond SPEC.md §3 and §7 (optional): the card network's own codes of a decline, as the
 * provider reported them (Stripe's `network_decline_code` and `network_advice_code`, Braintree's
 * `networkResponseCode` and `merchantAdviceCode`): Visa's response code ('05', '14', 'R1') and
 * Mastercard's merchant advice code ('03', '21'). The retry governor stops a card on them
 * (docs/payments.md "The retry governor"); a product API that leaves them out loses only that.
 */
const NetworkCodes = {
  network_decline_code: z.string().max(8).nullable().optional(),
  network_advice_code: z.string().max(8).nullable().optional(),
};

export const ApiErrorBody = z.object({
  errors: z.object({ messages: z.array(z.string()) }),
  code: z.string().optional(),
  /** A declined charge of the direct call: the gateway's decline code (SPEC.md §4 step 7). */
  decline_code: z.string().optional(),
  ...NetworkCodes,
  /**
   * SPEC.md §4 Alternate provider with 3-D Secure: the 'User action required' error carries the
   * nonce to verify and the amount to verify it for.
   */
  data: z
    .object({
      payment_method_nonce: z.string(),
      validation_amount: z.union([z.number(), z.string()]),
    })
    .optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

const Uuid = z.uuid();
const LandingType = z.string().min(1).max(120);
/**
 * RFC 5321 caps an address at 254 characters; the format check lives in shared/email-validity.ts.
 */
const Email = z.string().trim().min(3).max(254).includes('@');

// --- POST /signup and POST /authorize_social_via_access_token -------------------------------

/**
 * A quiz's answers the visitor gave before signing up (shared/quiz/answers.ts), by question key:
 * a choice's value, several choices' values, a whole number, a day or a short text. The worker
 * fills it from the visit's signed cookie, never from what the page sends
 * (worker/http/api-json.ts prepareBody); absent when the visitor answered none
 * (docs/product-api.md, "A quiz's answers").
 */
const QuizAnswers = z.record(
  z.string().regex(ANSWER_KEY),
  z.union([z.string().max(200), z.array(z.string().max(32)).max(12), z.int()]),
);

export const SignupRequest = z.object({
  registration_source: z.literal('email'),
  email: Email,
  user_uuid: Uuid,
  landing_type: LandingType,
  /** SPEC.md §5: falls back to the email when no name is given. */
  name: z.string().trim().max(200).optional(),
  quiz_answers: QuizAnswers.optional(),
});
export type SignupRequest = z.infer<typeof SignupRequest>;

export const SocialSignInRequest = z.object({
  /** For Google: the ID token (a JWT) that Google Identity Services hands the page. */
  access_token: z.string().min(1).max(8192),
  driver: z.literal('google'),
  landing_type: LandingType,
  user_uuid: Uuid,
  quiz_answers: QuizAnswers.optional(),
});
export type SocialSignInRequest = z.infer<typeof SocialSignInRequest>;

const AccountFields = z.object({
  deeplink_token: z.string(),
  entity: z.object({ external_user_id: z.string().min(1) }),
});

/** What the portal answers to both sign-up calls. */
export const SignupResponse = z.object({
  data: AccountFields.extend({ access_token: z.string().min(1) }),
});
export type SignupResponse = z.infer<typeof SignupResponse>;

/**
 * What the worker hands the browser instead: the same answer without the access token, which
 * stays in an HttpOnly cookie (stronger than SPEC.md §3's session storage). The user id is null
 * when the product API named none (./portal-answers.ts): the funnel goes on without it.
 */
export const BrowserSignupResponse = z.object({
  data: z.object({
    deeplink_token: z.string(),
    entity: z.object({ external_user_id: z.string().min(1).nullable() }),
  }),
});
export type BrowserSignupResponse = z.infer<typeof BrowserSignupResponse>;

// --- GET /users/me/payments-settings -------------------------------------------------------

export const PAYMENT_GATEWAYS = ['stripe', 'braintree', 'test'] as const;
/** The card providers a checkout can be routed to (the test gateway plays either). */
export const CARD_PROVIDERS = ['stripe', 'braintree'] as const;
export type PaymentGateway = (typeof PAYMENT_GATEWAYS)[number];

/**
 * SPEC.md §7: the fields sit at the top level of the answer (no `data`). A gateway the product
 * API does not name (or names one we do not know) is null: the card provider (SPEC.md §4).
 */
export const PaymentSettingsResponse = z.object({
  stripe_publishable_key: z.string().nullable(),
  stripe_account_name: z.string().nullable(),
  braintree_client_token: z.string().nullable(),
  payment_gateway: z.enum(PAYMENT_GATEWAYS).nullable(),
  request_three_d_secure: z.boolean(),
  /**
   * Ours, beyond SPEC.md §7, added by the worker and never the product API's: the card provider
   * this visitor's checkout pays with, routed around a failing one and kept for the checkout
   * (worker/provider-health/, docs/payments.md "A failing provider routed around"). Absent, the
   * checkout reads `payment_gateway` as before.
   */
  payment_provider: z.enum(CARD_PROVIDERS).optional(),
});
export type PaymentSettingsResponse = z.infer<typeof PaymentSettingsResponse>;

/** A link the page may show or open (./https-link.ts). */
const HttpsUrl = z.string().refine(isHttpsLink, { message: 'Expected an https link' });

// --- GET /users/me/deeplink-qr-code --------------------------------------------------------

/** What the embedded portal answers: the link and its QR code as an SVG data URL. */
export const DeeplinkResponse = z.object({
  data: z.object({
    short_deeplink: HttpsUrl,
    qr_code: z.string().startsWith('data:image/svg+xml'),
  }),
});
export type DeeplinkResponse = z.infer<typeof DeeplinkResponse>;

/**
 * What the browser gets: `qr_code` is an image source an <img> can show (an image data URL or
 * an https link), or null when the product API gave none it could use; the success screen then
 * draws the code from `short_deeplink` (SPEC.md §9 QR code).
 */
export const BrowserDeeplinkResponse = z.object({
  data: z.object({ short_deeplink: HttpsUrl, qr_code: z.string().min(1).nullable() }),
});
export type BrowserDeeplinkResponse = z.infer<typeof BrowserDeeplinkResponse>;

// --- GET /cf-country -----------------------------------------------------------------------

/** SPEC.md §7: `country_code` at the top level; null when the edge does not know it. */
export const CountryResponse = z.object({
  country_code: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable(),
});
export type CountryResponse = z.infer<typeof CountryResponse>;

// --- GET /phone-number-info/{phone} --------------------------------------------------------

/** An E.164 number as a path parameter: '+' and 8 to 15 digits. */
export const PhonePathParam = z.string().regex(/^\+[1-9]\d{7,14}$/);

export const Coordinates = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type Coordinates = z.infer<typeof Coordinates>;

/** What the searching screens show about a located number (SPEC.md §2). */
export const PhoneInfo = z.object({
  /** The number looked up, E.164. */
  phone: z.string(),
  valid: z.boolean(),
  /** ISO country of the number, or null when its prefix names none (e.g. +800). */
  country: z.string().nullable(),
  /** The phone library's line type (MOBILE, FIXED_LINE, ...), or null when unknown. */
  type: z.string().nullable(),
  /** Network operator, when the portal knows it. */
  carrier: z.string().nullable(),
  city: z.string().nullable(),
  /** IANA time zone. */
  timezone: z.string().nullable(),
  location: Coordinates.nullable(),
});
export type PhoneInfo = z.infer<typeof PhoneInfo>;

export const PhoneInfoResponse = z.object({ data: PhoneInfo });
export type PhoneInfoResponse = z.infer<typeof PhoneInfoResponse>;

// --- Subscriptions (SPEC.md §3 Request payload, §7) -----------------------------------------

/**
 * The `Idempotency-Key` a subscription POST carries, as Stripe accepts one: 1 to 255 printable
 * ASCII characters. A repeated key answers the first charge instead of charging again. Absent
 * (undefined or blank): no key; present but not of that form: refused, by the worker and the
 * portal alike.
 */
export type IdempotencyKeyHeader = { ok: true; key: string | null } | { ok: false };

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export function parseIdempotencyKey(header: string | undefined): IdempotencyKeyHeader {
  const key = header?.trim();
  if (!key) return { ok: true, key: null };
  return IDEMPOTENCY_KEY.test(key) ? { ok: true, key } : { ok: false };
}

export const PlanIdPathParam = z.string().regex(/^[A-Za-z0-9_.-]{1,80}$/);
/**
 * A polling id is the product API's to make (a UUID, a number, a job key): any characters a path
 * segment carries unencoded (RFC 3986's unreserved ones, and ':'), up to 128.
 */
export const POLLING_ID = /^[A-Za-z0-9._~:-]{1,128}$/;
export const PollingIdPathParam = z.string().regex(POLLING_ID);

/**
 * The visitor's agreement to the automatic renewal, where their country asks for one before paying
 * (shared/plans/renewal-consent.ts): which wording they ticked (`text_version`, the consent text's
 * version id) in which language, and when the worker saw it (`accepted_at`, ISO 8601, the
 * worker's clock: whatever the page sends there is replaced). Ours, beyond SPEC.md §7; optional,
 * so a product API that ignores it still charges.
 */
export const RenewalConsent = z.object({
  text_version: z.string().min(1).max(80),
  language: z.string().min(2).max(12),
  accepted_at: z.string().max(40).optional(),
  /**
   * What the box was ticked beside (shared/plans/consent-terms.ts): the plan, its currency, the
   * amount taken now and each renewal's, in minor units. The worker refuses a charge whose terms
   * differ; pages from before it was sent name none.
   */
  terms: z
    .object({
      plan_id: z.string().max(128),
      currency: z.string().regex(/^[A-Z]{3}$/),
      amount: z.number().int().nonnegative(),
      renewal_amount: z.number().int().nonnegative(),
    })
    .optional(),
});
export type RenewalConsent = z.infer<typeof RenewalConsent>;

export const SubscriptionRequest = z.object({
  gateway: z.string().min(1).max(40),
  payment_method_nonce: z.string().max(4096).nullable().optional(),
  coupon: z.string().max(80).nullable().optional(),
  payment_intent_id: z.string().max(255).nullable().optional(),
  /** Plan data merged with extra user data (SPEC.md §3). */
  user_data: z.record(z.string(), z.unknown()),
  /**
   * Ours, beyond SPEC.md §7: the ISO 4217 currency of the plan charged and its price id (the
   * catalogue plan id, `monthly_7d_intro_gbp`). The worker sets both from the catalogue after the
   * offer gate (worker/checkout/charge-call.ts); a product API that ignores them still charges.
   */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  price_id: z.string().max(128).optional(),
  renewal_consent: RenewalConsent.nullable().optional(),
  /**
   * Ours, beyond SPEC.md §7: the purchase this charge is an attempt of (the worker's attempt
   * ledger, worker/purchase-ledger/). Every attempt of one purchase, on either provider, carries
   * the same id; a product API that already charged a subscription under it answers that one
   * and charges nothing (docs/product-api.md). Set by the worker only: the browser's is replaced.
   */
  purchase_id: z
    .string()
    .regex(/^pur_[0-9a-f]{32}$/)
    .optional(),
  /**
   * Ours, beyond SPEC.md §7: the card provider to charge with, set by the worker from the call
   * (the polling route is the card provider's, the direct call the alternate's) after its health
   * routing (docs/product-api.md). A product API that ignores it charges as before.
   */
  payment_provider: z.enum(CARD_PROVIDERS).optional(),
});
export type SubscriptionRequest = z.infer<typeof SubscriptionRequest>;

export const PollingStartResponse = z.object({ data: z.object({ polling_result_id: z.string() }) });
export type PollingStartResponse = z.infer<typeof PollingStartResponse>;

/**
 * What a successful charge was for, in the product API's own words: the worker records revenue
 * from these and never from what a browser reports (server-verified purchases). Ours,
 * beyond SPEC.md §3's fields read; optional, as a product API that leaves them out still charges.
 */
const ChargedItem = z.object({
  /** ISO 4217 currency of `price_with_discount`. */
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .nullable()
    .optional(),
  /** The catalogue plan charged (the `:planId` of the call that started it). */
  plan_id: z.string().max(128).nullable().optional(),
  /**
   * What was charged, for the visitor to recognise on the receipt and the upsell that charges it
   * again: the card's brand (`visa`) and last four digits, or the wallet it came through
   * (`apple_pay`). Display only: nothing the page sends back decides which method is charged.
   */
  card_brand: z
    .string()
    .regex(/^[a-z_]{1,24}$/)
    .nullable()
    .optional(),
  card_last4: z
    .string()
    .regex(/^\d{4}$/)
    .nullable()
    .optional(),
  wallet: z
    .string()
    .regex(/^[a-z_]{1,24}$/)
    .nullable()
    .optional(),
});

/**
 * The worker's own account of a charge it verified, added to the browser's answer beside the
 * product API's fields (worker/purchases/receipt.ts): what the receipt, the upsell and success
 * show. Amounts in minor units of `currency`; times ISO 8601 (UTC). Display only: nothing the page
 * sends back is read from it. Never the product API's: a `receipt` in its answer is dropped.
 */
export const ChargeReceipt = z.object({
  plan_id: z.string(),
  /** What was taken now: the answer's `price_with_discount`, else the catalogue's first charge. */
  amount: z.number().int().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** When the worker saw the charge succeed: the day renewals count from. */
  charged_at: z.string(),
  /** The first renewal (after the intro's days, else one period); null for a one-time purchase. */
  renews_at: z.string().nullable(),
  /** What each renewal takes, in `currency`; null for a one-time purchase. */
  renewal_amount: z.number().int().nonnegative().nullable(),
  /**
   * The subscriber's page for this subscription (`/subscription/<token>`, a manage link the
   * worker signed): plan, card, cancel, the guarantee. Null for a one-time purchase or when the
   * worker has no SUBSCRIBER_LINK_KEY; absent from receipts made before it was.
   */
  manage_url: z.string().nullable().optional(),
});
export type ChargeReceipt = z.infer<typeof ChargeReceipt>;

export const PollingResultData = z.object({
  status: z.string(),
  data: z.unknown().optional(),
  subscription_id: z.string().nullable().optional(),
  event_id: z.string().nullable().optional(),
  price_with_discount: z.number().nullable().optional(),
  payment_intent_secret: z.string().nullable().optional(),
  payment_intent_id: z.string().nullable().optional(),
  decline_code: z.string().nullable().optional(),
  processor_response: z.string().nullable().optional(),
  ...NetworkCodes,
  ...ChargedItem.shape,
});
/** Repeated while the HTTP status is 202 (SPEC.md §7). */
export const PollingResultResponse = z.object({
  data: z.object({ result_data: PollingResultData.nullable() }),
});
export type PollingResultResponse = z.infer<typeof PollingResultResponse>;

export const DirectSubscriptionResponse = z.object({
  data: z.object({
    customer_id: z.string().nullable().optional(),
    subscription_id: z.string().nullable().optional(),
    event_id: z.string().nullable().optional(),
    price_with_discount: z.number().nullable().optional(),
    payment_method_nonce: z.string().nullable().optional(),
    validation_amount: z.union([z.number(), z.string()]).nullable().optional(),
    ...ChargedItem.shape,
  }),
});
export type DirectSubscriptionResponse = z.infer<typeof DirectSubscriptionResponse>;

// --- The table of calls ----------------------------------------------------------------------

/**
 * One row per call of SPEC.md §7. `auth: 'bearer'` calls carry the signed-in visitor's token
 * (SPEC.md §6); the worker adds it from its cookie. `timeoutMs` is how long the worker waits for
 * the portal before answering the browser itself.
 */
export interface ApiCall {
  method: 'GET' | 'POST';
  /** Portal path with `:param` placeholders; the browser calls the same path under `/api`. */
  path: string;
  auth: 'none' | 'bearer';
  request: z.ZodType | null;
  /**
   * The shape of a successful (2xx) answer as the browser gets it. The worker reads the portal's
   * answer into it by ./portal-answers.ts, which takes far more than this shape.
   */
  response: z.ZodType;
  timeoutMs: number;
}

export const API_CALLS = {
  signup: {
    method: 'POST',
    path: API_PATHS.signup,
    auth: 'none',
    request: SignupRequest,
    response: BrowserSignupResponse,
    timeoutMs: 10_000,
  },
  socialSignIn: {
    method: 'POST',
    path: API_PATHS.socialSignIn,
    auth: 'none',
    request: SocialSignInRequest,
    response: BrowserSignupResponse,
    timeoutMs: 10_000,
  },
  paymentSettings: {
    method: 'GET',
    path: API_PATHS.paymentSettings,
    auth: 'bearer',
    request: null,
    response: PaymentSettingsResponse,
    timeoutMs: 6_000,
  },
  deeplink: {
    method: 'GET',
    path: API_PATHS.deeplink,
    auth: 'bearer',
    request: null,
    response: BrowserDeeplinkResponse,
    timeoutMs: 6_000,
  },
  country: {
    method: 'GET',
    path: API_PATHS.country,
    auth: 'none',
    request: null,
    response: CountryResponse,
    timeoutMs: 3_000,
  },
  phoneInfo: {
    method: 'GET',
    path: API_PATHS.phoneInfo,
    auth: 'none',
    request: null,
    response: PhoneInfoResponse,
    timeoutMs: 8_000,
  },
  pollingSubscription: {
    method: 'POST',
    path: API_PATHS.pollingSubscription,
    auth: 'bearer',
    request: SubscriptionRequest,
    response: PollingStartResponse,
    timeoutMs: 20_000,
  },
  pollingResult: {
    method: 'GET',
    path: API_PATHS.pollingResult,
    auth: 'none',
    request: null,
    response: PollingResultResponse,
    timeoutMs: 10_000,
  },
  directSubscription: {
    method: 'POST',
    path: API_PATHS.directSubscription,
    auth: 'bearer',
    request: SubscriptionRequest,
    response: DirectSubscriptionResponse,
    timeoutMs: 30_000,
  },
} as const satisfies Record<ApiCallName, ApiCall>;

export type { ApiCallName };

// --- POST /deeplink/consume ------------------------------------------------------------------

const DeeplinkConsumeRequest = z.object({ token: z.string().min(1).max(255) });
export type DeeplinkConsumeRequest = z.infer<typeof DeeplinkConsumeRequest>;

export const DeeplinkConsumeResponse = z.object({
  data: z.object({
    /** The emulator names the user; the worker needs only the token, so it may be left out. */
    external_user_id: z.string().optional(),
    access_token: z.string().min(1),
  }),
});
export type DeeplinkConsumeResponse = z.infer<typeof DeeplinkConsumeResponse>;

/**
 * What the app does with the deeplink's one-time login token: signs its user in, once (a second
 * use answers 410, an unknown token 404). Not in SPEC.md §7's table (the product API has its
 * own), and not a row of API_CALLS: the browser never calls it under `/api`; the worker's
 * `POST /app/login` and a resume link made after sign-up do
 * (worker/portal-client/deeplink-consume.ts), and the emulator answers it
 * (portal/routes/deeplink.ts).
 */
export const DEEPLINK_CONSUME_CALL = {
  method: 'POST',
  path: '/deeplink/consume',
  auth: 'none',
  request: DeeplinkConsumeRequest,
  response: DeeplinkConsumeResponse,
  timeoutMs: 10_000,
} as const satisfies ApiCall;
