import type { ApiCallName } from '../../shared/api/contract';
import type { Bindings } from '../env';
import type { CardFingerprintSource } from './card-fingerprint';

/** The calls that charge a card (SPEC.md §7): the card gateway's POST and the direct one. */
const CHARGE_CALLS: ReadonlySet<ApiCallName> = new Set([
  'pollingSubscription',
  'directSubscription',
]);

export function isChargeCall(call: ApiCallName): boolean {
  return CHARGE_CALLS.has(call);
}

/**
 * The attempt a charge call belongs to: its Idempotency-Key without the 3-D Secure suffix
 * (islands/payments/attempt.ts idempotencyKeyOf), so a repeat or the call after the challenge is
 * the same attempt and its decline counts once. A call without a key is an attempt of its own.
 */
export function attemptOf(requestId: string, idempotencyKey: string | null): string {
  return idempotencyKey?.replace(/:3ds$/, '') ?? `request:${requestId}`;
}

/**
 * The card a charge call pays with, for the card-testing limits: its fingerprint, or null for
 * the card on file, a call that charges nothing, or a card no source knows.
 */
export async function chargedCardOf(
  env: Bindings,
  call: ApiCallName,
  body: unknown,
  fingerprint: CardFingerprintSource,
): Promise<string | null> {
  if (!CHARGE_CALLS.has(call)) return null;
  const nonce = (body as { payment_method_nonce?: string | null }).payment_method_nonce;
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
