import { kindOf, type ShapeDrift } from '../../shared/api/answer-fields';
import {
  LIFECYCLE_EVENT_TYPES,
  type LifecycleEventType,
  MAX_EVENT_ID_LENGTH,
  MAX_SUBSCRIPTION_ID_LENGTH,
} from '../../shared/api/lifecycle';
import { minorAmountOf } from '../experiments/store/experiment-purchase';
import type { ChargedCard, PaymentFacts, RenewalFailure, SubscriptionEvent } from './apply';

/**
 * Reads a lifecycle event's body (shared/api/lifecycle.ts LifecycleEventBody) as the worker reads
 * the product API's answers (shared/api/answer-fields.ts): strict where a wrong guess would
 * count money against the wrong buyer or the wrong sign (the event id, its type, the
 * subscription, and the amount and currency of an event that moves money), tolerant elsewhere,
 * with whatever came in another form noted as drift for the `lifecycle_shape` warning, by field
 * and kind, never by value.
 */

export type EventReading =
  | { ok: true; event: SubscriptionEvent; drift: ShapeDrift[] }
  | { ok: false; detail: string };

const KNOWN_FIELDS = new Set([
  'id',
  'type',
  'subscription_id',
  'amount',
  'currency',
  'occurred_at',
  'attempt_count',
  'decline_code',
  'card_brand',
  'card_fingerprint',
  'network_decline_code',
  'network_advice_code',
]);

/** A card fingerprint as providers write them (Stripe's 16 characters); else dropped. */
const FINGERPRINT = /^[A-Za-z0-9_-]{1,64}$/;

/** A network's response or advice code (`05`, `R0`, `03`); else dropped. */
const NETWORK_CODE = /^[A-Za-z0-9]{1,4}$/;

/** A card brand as providers write it (`visa`, `american_express`); anything else is dropped. */
const CARD_BRAND = /^[A-Za-z0-9_ -]{1,30}$/;

/** A decline code as providers write them (`insufficient_funds`, `2001`); anything else is dropped. */
const DECLINE_CODE = /^[A-Za-z0-9_.-]{1,40}$/;

/** More tries than any retry schedule makes (Visa allows 20 in 30 days) is no count we believe. */
const MAX_ATTEMPT_COUNT = 100;

/** An ISO 8601 instant with its offset; a time without one would be read in the worker's zone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Extra fields noted per event; the rest are taken silently. */
const MAX_EXTRA_NOTED = 10;

const TYPES: ReadonlySet<string> = new Set(LIFECYCLE_EVENT_TYPES);

/**
 * Refunds and chargebacks send money back: what the results subtract. A failed renewal moved
 * none: its amount is what is due, kept as its `failure`.
 */
const SIGN: Record<LifecycleEventType, 1 | -1 | 0> = {
  renewal: 1,
  refund: -1,
  chargeback: -1,
  cancellation: 0,
  renewal_failed: 0,
};

function refused(detail: string): EventReading {
  return { ok: false, detail };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idField(
  body: Record<string, unknown>,
  field: string,
  maxLength: number,
): string | { detail: string } {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') {
    return { detail: `${field}: a non-empty string is required (found ${kindOf(value)})` };
  }
  if (value.length > maxLength) return { detail: `${field}: longer than ${maxLength} characters` };
  return value;
}

/** What the event's money comes to, or why it cannot be counted. */
function moneyOf(
  body: Record<string, unknown>,
  type: LifecycleEventType,
  drift: ShapeDrift[],
): { amountMinor: number; currency: string | null; minor: number } | { detail: string } {
  const { amount, currency } = body;
  if (type === 'cancellation') {
    // Nothing to count: whatever came is ignored, and noted when it was not the documented empty.
    if (amount !== undefined && amount !== null && amount !== 0) {
      drift.push({ field: 'amount', found: `${kindOf(amount)} on a cancellation` });
    }
    if (currency !== undefined && currency !== null) {
      drift.push({ field: 'currency', found: `${kindOf(currency)} on a cancellation` });
    }
    return { amountMinor: 0, currency: null, minor: 0 };
  }
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    return {
      detail: `amount: a number in major units (39.99) is required (found ${kindOf(amount)})`,
    };
  }
  // The sign is the type's: a negative amount says something else than we expect, and guessing
  // which would count a refund twice or not at all.
  if (amount < 0) return { detail: `amount: must not be negative; a ${type}'s amount is positive` };
  if (typeof currency !== 'string') {
    return { detail: `currency: an ISO 4217 code is required (found ${kindOf(currency)})` };
  }
  const code = currency.trim().toUpperCase();
  const minor = /^[A-Z]{3}$/.test(code) ? minorAmountOf(amount, code) : null;
  if (minor === null)
    return { detail: `currency: "${currency.slice(0, 10)}" is not an ISO 4217 code` };
  if (code !== currency) drift.push({ field: 'currency', found: 'string not upper case' });
  if (!Number.isSafeInteger(minor.amountMinor)) return { detail: 'amount: too large' };
  return { amountMinor: SIGN[type] * minor.amountMinor, currency: code, minor: minor.amountMinor };
}

/** A `renewal_failed`'s due amount, try count and decline code; what is unusable noted as drift. */
function failureOf(
  body: Record<string, unknown>,
  dueMinor: number,
  drift: ShapeDrift[],
): RenewalFailure {
  const attempt = attemptOf(body, drift);
  const { decline_code: code } = body;
  const codeOk = typeof code === 'string' && DECLINE_CODE.test(code);
  if (!codeOk && code !== undefined && code !== null) {
    drift.push({ field: 'decline_code', found: `${kindOf(code)} not a short code` });
  }
  return { dueMinor, attempt, declineCode: codeOk ? code.toLowerCase() : null };
}

/** `attempt_count` when it is a believable count; else null, and noted when something came. */
function attemptOf(body: Record<string, unknown>, drift: ShapeDrift[]): number | null {
  const { attempt_count: attempt } = body;
  const ok =
    typeof attempt === 'number' &&
    Number.isInteger(attempt) &&
    attempt >= 1 &&
    attempt <= MAX_ATTEMPT_COUNT;
  if (ok) return attempt;
  if (attempt !== undefined && attempt !== null) {
    drift.push({ field: 'attempt_count', found: `${kindOf(attempt)} not a count` });
  }
  return null;
}

/**
 * A renewal's, refund's or chargeback's try and card, for the archive, when it sent either (both
 * are optional); what is unusable noted.
 */
function paymentOf(body: Record<string, unknown>, drift: ShapeDrift[]): { payment?: PaymentFacts } {
  const { card_brand: brand } = body;
  const brandOk = typeof brand === 'string' && CARD_BRAND.test(brand);
  if (!brandOk && brand !== undefined && brand !== null) {
    drift.push({ field: 'card_brand', found: `${kindOf(brand)} not a short name` });
  }
  const payment = {
    attempt: attemptOf(body, drift),
    cardBrand: brandOk ? brand.toLowerCase() : null,
  };
  return payment.attempt === null && payment.cardBrand === null ? {} : { payment };
}

/** A short field matching `shape`, else null, and noted when something unusable came. */
function shortField(
  body: Record<string, unknown>,
  field: string,
  shape: RegExp,
  drift: ShapeDrift[],
): string | null {
  const value = body[field];
  if (typeof value === 'string' && shape.test(value)) return value;
  if (value !== undefined && value !== null)
    drift.push({ field, found: `${kindOf(value)} not a short code` });
  return null;
}

/**
 * The card a renewal or a failed renewal charged, for the retry governor, when it named any of
 * it; what is unusable noted. (`card_brand` on a renewal is also the archive's, paymentOf.)
 */
function chargedOf(body: Record<string, unknown>, drift: ShapeDrift[]): { charged?: ChargedCard } {
  const brand = typeof body.card_brand === 'string' && CARD_BRAND.test(body.card_brand);
  const charged = {
    fingerprint: shortField(body, 'card_fingerprint', FINGERPRINT, drift),
    brand: brand ? (body.card_brand as string).toLowerCase() : null,
    responseCode: shortField(body, 'network_decline_code', NETWORK_CODE, drift),
    adviceCode: shortField(body, 'network_advice_code', NETWORK_CODE, drift),
  };
  return Object.values(charged).every((value) => value === null) ? {} : { charged };
}

/** When it happened (epoch ms): `occurred_at`, else when it was received, noted as drift. */
function occurredAt(value: unknown, receivedAt: number, drift: ShapeDrift[]): number {
  if (typeof value === 'string' && ISO_INSTANT.test(value)) {
    const at = Date.parse(value);
    if (Number.isFinite(at)) return at;
  }
  drift.push({
    field: 'occurred_at',
    found: typeof value === 'string' ? 'string not an ISO instant' : kindOf(value),
  });
  return receivedAt;
}

/** The event in `text`, or a one-line reason for the 400 that says what to fix. */
export function readLifecycleEvent(text: string, receivedAt: number): EventReading {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refused('body is not JSON');
  }
  if (!isRecord(body)) return refused(`body: a JSON object is required (found ${kindOf(body)})`);

  const eventId = idField(body, 'id', MAX_EVENT_ID_LENGTH);
  if (typeof eventId !== 'string') return refused(eventId.detail);
  const { type } = body;
  if (typeof type !== 'string' || !TYPES.has(type)) {
    return refused(`type: one of ${LIFECYCLE_EVENT_TYPES.join(', ')} is required`);
  }
  const kind = type as LifecycleEventType;
  const subscriptionId = idField(body, 'subscription_id', MAX_SUBSCRIPTION_ID_LENGTH);
  if (typeof subscriptionId !== 'string') return refused(subscriptionId.detail);

  const drift: ShapeDrift[] = [];
  const money = moneyOf(body, kind, drift);
  if ('detail' in money) return refused(money.detail);
  const at = occurredAt(body.occurred_at, receivedAt, drift);
  const { minor, ...counted } = money;
  const failure = kind === 'renewal_failed' ? { failure: failureOf(body, minor, drift) } : {};
  const payment = SIGN[kind] !== 0 ? paymentOf(body, drift) : {};
  const charged = kind === 'renewal' || kind === 'renewal_failed' ? chargedOf(body, drift) : {};
  const extra = Object.keys(body).filter((field) => !KNOWN_FIELDS.has(field));
  // Names only, a few, cut short: the log says the body grew, not what it carries.
  for (const field of extra.slice(0, MAX_EXTRA_NOTED)) {
    drift.push({ field: field.slice(0, 64), found: 'extra' });
  }
  return {
    ok: true,
    event: { eventId, subscriptionId, kind, ...counted, at, ...failure, ...payment, ...charged },
    drift,
  };
}
