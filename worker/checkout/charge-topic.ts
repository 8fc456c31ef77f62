import type { ApiCallName } from '../../shared/api/contract';
import { type CardNetwork, cardNetworkOf } from '../../shared/card-network';
import { sha256Hex } from '../../shared/hex';
import { describeError, logError } from '../../shared/log';
import type { Bindings } from '../env';

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
 * (worker/rate-limits/rate-limits.ts): the same card number gives the same fingerprint whatever
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
   * types, which the retry governor counts per payer (worker/purchase-ledger/card-key.ts).
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
