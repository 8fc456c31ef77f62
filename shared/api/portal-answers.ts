import {
  amount,
  amountOrText,
  anything,
  countryCode,
  type Field,
  flag,
  kindOf,
  lowerCaseWord,
  nonEmptyText,
  nullableObject,
  object,
  oneOf,
  optional,
  requestValue,
  required,
  text,
  texts,
} from './answer-fields';
import type {
  ApiErrorBody,
  BrowserDeeplinkResponse,
  BrowserSignupResponse,
  Coordinates,
  CountryResponse,
  DeeplinkConsumeResponse,
  DirectSubscriptionResponse,
  PaymentSettingsResponse,
  PhoneInfoResponse,
  PollingResultResponse,
  PollingStartResponse,
} from './contract';
import { PAYMENT_GATEWAYS, POLLING_ID } from './contract';
import { isHttpsLink } from './https-link';
import type { ApiCallName } from './paths';

/**
 * What the worker accepts from the product API for each call of SPEC.md §7, field by field: the
 * shapes of ./contract.ts are what the browser gets (and what the embedded portal answers); these
 * are the many answers a real API may give for them. Required fields are those the step cannot
 * go on without; every other field has a fallback, which docs/product-api.md's table of fields lists with
 * what a visitor sees without it ("The product API's answers, field by field").
 */

/** A sign-in answer as the worker reads it: the token it keeps, and what the browser gets. */
export interface SignedInAnswer extends BrowserSignupResponse {
  data: BrowserSignupResponse['data'] & { access_token: string };
}

const signedIn: Field<SignedInAnswer> = object({
  data: object({
    access_token: required(nonEmptyText),
    deeplink_token: optional(text, ''),
    entity: object({ external_user_id: optional(nonEmptyText, null) }),
  }),
});

const paymentSettings: Field<PaymentSettingsResponse> = object({
  stripe_publishable_key: optional(nonEmptyText, null, { null: true }),
  stripe_account_name: optional(nonEmptyText, null, { null: true }),
  braintree_client_token: optional(nonEmptyText, null, { null: true }),
  // SPEC.md §4: the provider defaults to the card provider (islands/signup/payment-settings.ts).
  payment_gateway: optional(oneOf(PAYMENT_GATEWAYS), null),
  request_three_d_secure: optional(flag, false),
});

/** Image sources an <img> shows in our page: data URLs of the common formats, or an https link. */
const IMAGE_DATA_URL = /^data:image\/(svg\+xml|png|jpeg|gif|webp)[;,]/i;

const imageSource = (raw: unknown) => {
  if (typeof raw !== 'string') return null;
  if (raw.startsWith('data:image/svg+xml')) return { value: raw };
  if (IMAGE_DATA_URL.test(raw)) return { value: raw, found: 'string (another image type)' };
  if (isHttpsLink(raw)) return { value: raw, found: 'string (a link)' };
  return null;
};

const httpsLink = (raw: unknown) =>
  typeof raw === 'string' && isHttpsLink(raw) ? { value: raw } : null;

const deeplink: Field<BrowserDeeplinkResponse> = object({
  data: object({
    short_deeplink: required(httpsLink),
    // Without a usable image the success screen draws the code from the link itself.
    qr_code: optional(imageSource, null),
  }),
});

const country: Field<CountryResponse> = object({
  country_code: optional(countryCode, null, { null: true }),
});

/** A point as APIs spell it: lat with lng or lon, or latitude with longitude, numbers or text. */
const coordinates = (raw: unknown) => {
  if (typeof raw !== 'object' || raw === null) return null;
  const point = raw as Record<string, unknown>;
  const lat = amount(point.lat ?? point.latitude);
  const lng = amount(point.lng ?? point.lon ?? point.longitude);
  if (!lat || !lng) return null;
  if (Math.abs(lat.value) > 90 || Math.abs(lng.value) > 180) return null;
  const value: Coordinates = { lat: lat.value, lng: lng.value };
  const canonical = 'lng' in point && 'lat' in point && !lat.found && !lng.found;
  return canonical ? { value } : { value, found: 'object (other names or types)' };
};

const phoneInfo: Field<PhoneInfoResponse> = object({
  // A 200 without the number's data is no lookup at all; with it, each field has a fallback and
  // the searching screen shows what it has.
  data: object(
    {
      // The number the worker asked about, whatever form the answer writes it in: the screens key
      // what they keep by it, so a reload never looks the number up (and texts its owner) again.
      phone: requestValue('phone'),
      // A 200 is a number the API could look up (SPEC.md §5: a non-200 is 'Phone number is incorrect').
      valid: optional(flag, true),
      country: optional(countryCode, null, { null: true }),
      type: optional(nonEmptyText, null, { null: true }),
      carrier: optional(nonEmptyText, null, { null: true }),
      city: optional(nonEmptyText, null, { null: true }),
      timezone: optional(nonEmptyText, null, { null: true }),
      location: optional(coordinates, null, { null: true }),
    },
    'required',
  ),
});

/** A polling id the next call can carry in its path (the contract's POLLING_ID). */
const pollingId = (raw: unknown) => {
  const taken = text(raw);
  return taken && POLLING_ID.test(taken.value) ? taken : null;
};

const pollingStart: Field<PollingStartResponse> = object({
  data: object({ polling_result_id: required(pollingId) }),
});

/** Fields of a charge the contract itself may leave out: absent or null is no drift. */
const maybe = <T>(accept: Parameters<typeof optional<T>>[0]) =>
  optional(accept, null, { absent: true, null: true });

const chargedItem = {
  currency: maybe(currencyCode),
  plan_id: maybe(nonEmptyText),
  card_brand: maybe(methodName),
  card_last4: maybe(lastFour),
  wallet: maybe(methodName),
};

/**
 * A card brand or wallet as the processors spell it ('visa', 'American Express', 'apple-pay'):
 * lower case with underscores. Anything longer or with other characters is no name we can show.
 */
function methodName(raw: unknown) {
  if (typeof raw !== 'string') return null;
  const name = raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (!/^[a-z_]{1,24}$/.test(name)) return null;
  return name === raw ? { value: name } : { value: name, found: 'string (another spelling)' };
}

/** The last four digits of a card; a number loses its leading zeros, so only text is taken. */
function lastFour(raw: unknown) {
  if (typeof raw !== 'string' || !/^\d{4,19}$/.test(raw.trim())) return null;
  const digits = raw.trim().slice(-4);
  return digits === raw ? { value: digits } : { value: digits, found: 'string (a longer number)' };
}

/**
 * A card network's code ('05', 'R1', '03'): one to four letters or digits; a number is taken as
 * the networks write it, two digits at least (5 is '05').
 */
function networkCode(raw: unknown) {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw < 100) {
    return { value: String(raw).padStart(2, '0'), found: 'number' };
  }
  if (typeof raw !== 'string' || !/^[A-Za-z0-9]{1,4}$/.test(raw.trim())) return null;
  const code = raw.trim().toUpperCase();
  return code === raw ? { value: code } : { value: code, found: 'string (another spelling)' };
}

/** An ISO 4217 code (three letters), upper case. */
function currencyCode(raw: unknown) {
  if (typeof raw !== 'string' || !/^[A-Za-z]{3}$/.test(raw.trim())) return null;
  const code = raw.trim().toUpperCase();
  return code === raw ? { value: code } : { value: code, found: 'string (letter case)' };
}

const pollingResult: Field<PollingResultResponse> = object({
  data: object({
    // SPEC.md §7: null (or absent) while the charge is pending; a final result needs its status.
    result_data: nullableObject({
      status: required(lowerCaseWord),
      data: optional(anything, undefined, { absent: true, null: true }),
      subscription_id: maybe(nonEmptyText),
      event_id: maybe(nonEmptyText),
      price_with_discount: maybe(amount),
      payment_intent_secret: maybe(nonEmptyText),
      payment_intent_id: maybe(nonEmptyText),
      decline_code: maybe(nonEmptyText),
      processor_response: maybe(nonEmptyText),
      network_decline_code: maybe(networkCode),
      network_advice_code: maybe(networkCode),
      ...chargedItem,
    }),
  }),
});

const directSubscription: Field<DirectSubscriptionResponse> = object({
  data: object({
    customer_id: maybe(nonEmptyText),
    subscription_id: maybe(nonEmptyText),
    event_id: maybe(nonEmptyText),
    price_with_discount: maybe(amount),
    payment_method_nonce: maybe(nonEmptyText),
    validation_amount: maybe(amountOrText),
    ...chargedItem,
  }),
});

/** Every call of SPEC.md §7: how the worker reads its successful (2xx) answer. */
export const PORTAL_ANSWERS = {
  signup: signedIn,
  socialSignIn: signedIn,
  paymentSettings,
  deeplink,
  country,
  phoneInfo,
  pollingSubscription: pollingStart,
  pollingResult,
  directSubscription,
} as const satisfies Record<ApiCallName, Field<unknown>>;

/** The app's one-time login (contract DEEPLINK_CONSUME_CALL): its token is all the worker needs. */
export const DEEPLINK_CONSUME_ANSWER: Field<DeeplinkConsumeResponse> = object({
  data: object({
    external_user_id: optional(nonEmptyText, undefined, { absent: true }),
    access_token: required(nonEmptyText),
  }),
});

/** At most this many messages of at most this length reach the page from one refusal. */
const MESSAGES_KEPT = 10;
const MESSAGE_LENGTH = 500;

/**
 * A refusal's texts (SPEC.md §7 "Errors in errors.messages"): the list, one text, or a field's
 * list of a validation error (`errors: {email: ['…']}`, as Laravel answers a 422).
 */
const messages = (raw: unknown) => {
  const list = texts(MESSAGES_KEPT, MESSAGE_LENGTH);
  if (Array.isArray(raw) || typeof raw === 'string') return list(raw);
  return null;
};

function errorsOf(raw: unknown): { value: { messages: string[] }; found?: string } | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const read = messages(raw);
    return read
      ? { value: { messages: read.value }, found: `${kindOf(raw)} (errors as texts)` }
      : null;
  }
  const errors = raw as Record<string, unknown>;
  if ('messages' in errors) {
    const read = messages(errors.messages);
    return read ? { value: { messages: read.value }, found: read.found } : null;
  }
  const byField = Object.values(errors).flatMap((entry) => messages(entry)?.value ?? []);
  return byField.length > 0
    ? { value: { messages: byField.slice(0, MESSAGES_KEPT) }, found: 'object (texts by field)' }
    : null;
}

/**
 * A refusal (non-2xx) in the §7 error shape or near it. `errors` is what makes it one; without
 * it the body is not read as a refusal the page can show (a proxy's JSON, `{message}` of a
 * framework's 500, whose text is not for visitors).
 */
export const PORTAL_REFUSAL: Field<ApiErrorBody> = object({
  errors: required(errorsOf),
  code: optional(nonEmptyText, undefined, { absent: true }),
  decline_code: optional(nonEmptyText, undefined, { absent: true, null: true }),
  network_decline_code: optional(networkCode, undefined, { absent: true, null: true }),
  network_advice_code: optional(networkCode, undefined, { absent: true, null: true }),
  data: optional(threeDSecureData, undefined, { absent: true, null: true }),
});

/** SPEC.md §4: 'User action required' carries the nonce to verify and the amount to verify it for. */
function threeDSecureData(raw: unknown) {
  if (typeof raw !== 'object' || raw === null) return null;
  const data = raw as Record<string, unknown>;
  const nonce = nonEmptyText(data.payment_method_nonce);
  const amountToVerify = amountOrText(data.validation_amount);
  if (!nonce || !amountToVerify) return null;
  const value = { payment_method_nonce: nonce.value, validation_amount: amountToVerify.value };
  return nonce.found ? { value, found: 'object (a nonce as a number)' } : { value };
}
