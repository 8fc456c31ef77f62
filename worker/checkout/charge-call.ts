import {
  type ApiCallName,
  ApiErrorBody,
  DirectSubscriptionResponse,
  PollingResultResponse,
  type SubscriptionRequest,
} from '../../shared/api/contract';
import { type CardNetwork, cardNetworkOf } from '../../shared/card-network';
import {
  type DeclineClass,
  declineClassOf,
  type ProviderDecline,
} from '../../shared/decline-class';
import { sha256Hex } from '../../shared/hex';
import { describeError, logError } from '../../shared/log';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import type { Bindings } from '../env';

/**
 * A charge call through the worker: the body the product API gets (withChargedPrice,
 * withPurchaseId) and what its answers prove (verifiedChargeOf, declineOf).
 */

/**
 * The charge request as the product API gets it: with the currency and price id of the catalogue
 * plan the offer gate let through (`:planId`), as top-level `currency` and `price_id`, and the
 * same `currency` in `user_data`. The page's own `user_data.currency` is replaced, not trusted:
 * the visitor's currency is the worker's to say (worker/funnel/locale.ts), and the
 * offer gate already refused a plan of another one. A body that names no catalogue plan is sent
 * as it came.
 */
export function withChargedPrice(
  body: SubscriptionRequest,
  planId: string | null,
): SubscriptionRequest {
  if (planId === null || !isPlanId(planId)) return body;
  const plan = planById(planId);
  return {
    ...body,
    currency: plan.currency,
    price_id: plan.id,
    user_data: { ...body.user_data, currency: plan.currency, price_id: plan.id },
  };
}

/**
 * The charge request with the purchase's id from its attempt ledger
 * (worker/purchase-ledger/charge-guard.ts), the one the product API de-duplicates the
 * subscription on; without one (the ledger could not be reached) none is sent. Whatever the
 * browser put there is never passed on: a visitor cannot name another's purchase.
 */
export function withPurchaseId(
  body: SubscriptionRequest,
  purchaseId: string | null,
): SubscriptionRequest {
  const { purchase_id: _sent, ...rest } = body;
  return purchaseId === null ? rest : { ...rest, purchase_id: purchaseId };
}

/**
 * What the charge answers the worker relays prove: a purchase, or a decline. Read
 * from the product API's answer only, never from anything the browser says about it.
 */

/** A final successful charge, in the product API's words only. */
export interface VerifiedCharge {
  subscriptionId: string;
  /** The portal's event id: the browser pixel sends the same one, so networks count it once. */
  eventId: string;
  /** What was charged, after any discount; null when the answer did not say. */
  amount: number | null;
  /** ISO 4217, upper case; null when the answer did not say. */
  currency: string | null;
  planId: string | null;
}

interface ChargeFields {
  subscription_id?: string | null;
  event_id?: string | null;
  price_with_discount?: number | null;
  currency?: string | null;
  plan_id?: string | null;
}

function verified(fields: ChargeFields): VerifiedCharge | null {
  if (!fields.subscription_id) return null;
  const amount = fields.price_with_discount;
  return {
    subscriptionId: fields.subscription_id,
    eventId: fields.event_id || fields.subscription_id,
    amount: typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? amount : null,
    currency: fields.currency ? fields.currency.toUpperCase() : null,
    planId: fields.plan_id || null,
  };
}

/**
 * The charge an answer the worker relays proves, or null: a polling result that is final (not
 * 202) and 'succeeded' with a subscription id, or a direct subscription call's 2xx with one. A
 * polling start, a pending, declined, failed or 3-D Secure result proves nothing was bought.
 * What the answer leaves out stays null here: ./catalogue-charge.ts fills it from what was asked.
 */
export function verifiedChargeOf(
  call: ApiCallName,
  status: number,
  body: unknown,
): VerifiedCharge | null {
  if (status < 200 || status >= 300) return null;
  if (call === 'pollingResult' && status !== 202) {
    const answer = PollingResultResponse.safeParse(body);
    const result = answer.success ? answer.data.data.result_data : null;
    return result?.status === 'succeeded' ? verified(result) : null;
  }
  if (call === 'directSubscription') {
    const answer = DirectSubscriptionResponse.safeParse(body);
    return answer.success ? verified(answer.data.data) : null;
  }
  return null;
}

/**
 * The decline an answer reports, named so that reading it again counts it once: a final polling
 * result that failed (named by its polling id), or a direct charge refused with a decline code
 * (named by its attempt). Null for anything else: a success, a pending result, 'User action
 * required', a refusal that is not the card's.
 */
export function declineOf(
  call: ApiCallName,
  status: number,
  body: unknown,
  names: { pollingId: string | null; attempt: string },
): string | null {
  if (call === 'pollingResult' && status === 200 && names.pollingId !== null) {
    const answer = PollingResultResponse.safeParse(body);
    const result = answer.success ? answer.data.data.result_data : null;
    return result?.status === 'failed' ? `polling:${names.pollingId}` : null;
  }
  if (call === 'directSubscription' && status >= 400 && status < 500) {
    const refusal = ApiErrorBody.safeParse(body);
    return refusal.success && refusal.data.decline_code ? `attempt:${names.attempt}` : null;
  }
  return null;
}

/** What a decline's log line says of it: its class and the code it was read from. */
export interface DeclineReport {
  decline_class: DeclineClass;
  /** The gateway's decline code, else Braintree's processor code; 'declined' when only words. */
  decline_code: string;
}

/** A code as a log line carries it: a short code, never the API's free words. */
const loggable = (code: string | null | undefined): string | null =>
  code && /^[\w.-]{1,64}$/.test(code.trim()) ? code.trim() : null;

/**
 * The class and code of a decline the answer reports (the same answers declineOf counts): a
 * final polling result that failed, read from its decline code and processor response, or a
 * direct charge refused with a decline code. Null for anything that is not a decline.
 */
export function declineReportOf(
  call: ApiCallName,
  status: number,
  body: unknown,
): DeclineReport | null {
  let decline: ProviderDecline | null = null;
  if (call === 'pollingResult' && status === 200) {
    const answer = PollingResultResponse.safeParse(body);
    const result = answer.success ? answer.data.data.result_data : null;
    if (result?.status === 'failed') {
      decline = { declineCode: result.decline_code, processorResponse: result.processor_response };
    }
  }
  if (call === 'directSubscription' && status >= 400 && status < 500) {
    const refusal = ApiErrorBody.safeParse(body);
    if (refusal.success && refusal.data.decline_code) {
      decline = { declineCode: refusal.data.decline_code };
    }
  }
  if (decline === null) return null;
  const processorCode = decline.processorResponse?.trim().match(/^\d{4}\b/)?.[0];
  return {
    decline_class: declineClassOf(decline),
    decline_code: loggable(decline.declineCode) ?? processorCode ?? 'declined',
  };
}

/**
 * What a charge call is about: its attempt (the key every count of the charge pipeline keeps), the
 * card it pays with (its fingerprint and network, asked of the provider, never of the browser)
 * and the order (the plan and coupon).
 */

/** The calls that charge a card (SPEC.md §7): the card gateway's POST and the direct one. */
const CHARGE_CALLS: ReadonlySet<ApiCallName> = new Set([
  'pollingSubscription',
  'directSubscription',
]);

export function isChargeCall(call: ApiCallName): boolean {
  return CHARGE_CALLS.has(call);
}

/**
 * One attempt to charge a card, as the worker names it: to the product API (its Idempotency-Key)
 * and in every count the charge pipeline keeps (the card-testing limits' declines, the attempt
 * ledger, the retry governor).
 */
export interface ChargeAttempt {
  /** The attempt's id: the same press of Pay with the same card, whatever else it carries. */
  id: string;
  /**
   * The Idempotency-Key the product API gets: the id, with `:3ds` on the call after a 3-D Secure
   * challenge (the same attempt, a request of its own); null when the browser sent no key.
   */
  key: string | null;
}

/**
 * The attempt a charge belongs to: the browser's Idempotency-Key without its 3-D Secure suffix
 * (islands/payments/attempt.ts idempotencyKeyOf) and the card it pays with (the payment method
 * nonce, or the card on file), digested into the worker's own key. A second press or the call
 * after the challenge is the same attempt and its decline counts once; another card is another
 * attempt whatever header the browser sends, so a card tester who posts every card under one
 * constant key has each decline counted, and the product API sees each card as its own request.
 * A call without a key is an attempt of its own.
 */
export async function chargeAttemptOf(
  requestId: string,
  idempotencyKey: string | null,
  nonce: string | null,
): Promise<ChargeAttempt> {
  const base = idempotencyKey?.replace(/:3ds$/, '') ?? `request:${requestId}`;
  const id = `attempt:${await sha256Hex(`${base}|${nonce === null ? 'on file' : `nonce:${nonce}`}`, 32)}`;
  const challenged = idempotencyKey?.endsWith(':3ds') === true;
  return { id, key: idempotencyKey === null ? null : `${id}${challenged ? ':3ds' : ''}` };
}

/** The payment method nonce a charge call's body carries, or null (the card on file). */
export function nonceOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const nonce = (body as { payment_method_nonce?: unknown }).payment_method_nonce;
  return typeof nonce === 'string' && nonce !== '' ? nonce : null;
}

/**
 * The card a charge call pays with, for the card-testing limits and the retry governor: its
 * fingerprint and network, or null for the card on file, a call that charges nothing, or a card
 * no source knows.
 */
export async function chargedCardOf(
  env: Bindings,
  call: ApiCallName,
  body: unknown,
  fingerprint: CardFingerprintSource,
): Promise<CardIdentity | null> {
  if (!CHARGE_CALLS.has(call)) return null;
  const nonce = nonceOf(body);
  return nonce ? fingerprint(nonce, env) : null;
}

/**
 * The plan and coupon a charge call asks for (its `:planId`, SPEC.md §3 request payload's
 * `coupon`), remembered to price a success whose answer does not say what it charged; nulls for
 * any other call. `planId` is the call's path parameter.
 */
export function orderOf(
  planId: string | undefined,
  call: ApiCallName,
  body: unknown,
): { planId: string | null; coupon: string | null } {
  if (!CHARGE_CALLS.has(call)) return { planId: null, coupon: null };
  const coupon = (body as { coupon?: string | null }).coupon;
  return { planId: planId ?? null, coupon: coupon ? coupon : null };
}

/**
 * The fingerprint of the card behind a payment method nonce, for the per-card charge limit
 * (worker/rate-limits/rate-limit-gate.ts): the same card number gives the same fingerprint whatever
 * nonce it was tokenized into. Null when no source knows it; the charge is then limited per visitor
 * and address only. Never read from the browser: a card-testing bot would send a fresh one each
 * time.
 */
export type CardFingerprintSource = (nonce: string, env: Bindings) => Promise<CardIdentity | null>;

/**
 * The card behind a nonce, as the provider's own answer names it: its fingerprint (one card
 * number, one fingerprint) and its network, whose retry rules the governor applies.
 */
export interface CardIdentity {
  fingerprint: string;
  network: CardNetwork;
  /**
   * A test-mode card (Stripe's `livemode: false`, the test gateway's): a number everyone who tests
   * types, which the retry governor counts per payer (worker/purchase-ledger/ledger.ts governorCardKey).
   */
  testCard: boolean;
}

/** Stripe's PaymentMethod ids (pm_…, and the older card_… sources). */
const STRIPE_PAYMENT_METHOD = /^(pm|card)_[A-Za-z0-9]{8,64}$/;

const STRIPE_API = 'https://api.stripe.com/v1/payment_methods/';

/** The lookup is on the charge's path: past this the charge goes on without the card's count. */
const FINGERPRINT_TIMEOUT_MS = 1_500;

function identityOf(json: unknown): CardIdentity | null {
  if (typeof json !== 'object' || json === null) return null;
  const card = (json as { card?: unknown }).card;
  if (typeof card !== 'object' || card === null) return null;
  const { fingerprint, brand } = card as { fingerprint?: unknown; brand?: unknown };
  const testCard = (json as { livemode?: unknown }).livemode === false;
  return typeof fingerprint === 'string' && /^[A-Za-z0-9]{1,64}$/.test(fingerprint)
    ? { fingerprint, network: cardNetworkOf(brand), testCard }
    : null;
}

/**
 * Stripe: `GET /v1/payment_methods/{id}` answers `card.fingerprint` (and `card.brand`, the
 * network) to a secret or restricted
 * key only (Stripe leaves it out of what a publishable key sees, so the page cannot know it).
 * STRIPE_FINGERPRINT_KEY is a restricted key with the single permission "PaymentMethods: Read";
 * unset, Stripe cards are not fingerprinted. A lookup that fails is logged and answers null:
 * the limits guard at the margin and must not stop a paying visitor.
 */
export function stripeCardFingerprint(fetchImpl: typeof fetch = fetch): CardFingerprintSource {
  return async function stripeFingerprint(nonce, env) {
    const key = env.STRIPE_FINGERPRINT_KEY?.trim();
    if (!key || !STRIPE_PAYMENT_METHOD.test(nonce)) return null;
    try {
      const response = await fetchImpl(`${STRIPE_API}${nonce}`, {
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(FINGERPRINT_TIMEOUT_MS),
      });
      if (!response.ok) {
        logError('card_fingerprint_failed', { status: response.status });
        return null;
      }
      return identityOf(await response.json());
    } catch (error) {
      logError('card_fingerprint_failed', {
        detail: describeError(error),
      });
      return null;
    }
  };
}

/** The first source that knows the nonce's card. */
export function firstFingerprint(
  ...sources: (CardFingerprintSource | undefined)[]
): CardFingerprintSource {
  const known = sources.filter((source) => source !== undefined);
  return async function cardFingerprint(nonce, env) {
    for (const source of known) {
      const identity = await source(nonce, env);
      if (identity !== null) return identity;
    }
    return null;
  };
}
