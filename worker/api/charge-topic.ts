import type { ApiCallName } from '../../shared/api/contract';
import { sha256Hex } from '../../shared/hex';
import type { Bindings } from '../env';
import type { CardFingerprintSource, CardIdentity } from './card-fingerprint';

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
