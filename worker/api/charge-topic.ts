import type { Context } from 'hono';
import type { ApiCallName } from '../../shared/api/contract';
import type { AppEnv } from '../env';
import type { CardFingerprintSource } from './card-fingerprint';
import type { RateTopic } from './rate-limit-gate';

/** The calls that charge a card (SPEC.md §7): the card gateway's POST and the direct one. */
const CHARGE_CALLS: ReadonlySet<ApiCallName> = new Set([
  'pollingSubscription',
  'directSubscription',
]);

/**
 * The attempt a charge call belongs to: its Idempotency-Key without the 3-D Secure suffix
 * (islands/payments/attempt.ts idempotencyKeyOf), so a repeat or the call after the challenge is
 * the same attempt. A call without a key is an attempt of its own.
 */
export function attemptOf(c: Context<AppEnv>, idempotencyKey: string | null): string {
  return idempotencyKey?.replace(/:3ds$/, '') ?? `request:${c.get('requestId')}`;
}

/**
 * What a charge call is about, for the card-testing limits: its attempt and its card's
 * fingerprint (null for the card on file, or where no source knows the card). Null for calls
 * that charge nothing.
 */
export async function chargeTopic(
  c: Context<AppEnv>,
  call: ApiCallName,
  request: { body: unknown; idempotencyKey: string | null },
  fingerprint: CardFingerprintSource,
): Promise<RateTopic['charge']> {
  if (!CHARGE_CALLS.has(call)) return undefined;
  const nonce = (request.body as { payment_method_nonce?: string | null }).payment_method_nonce;
  return {
    attempt: attemptOf(c, request.idempotencyKey),
    card: nonce ? await fingerprint(nonce, c.env) : null,
  };
}
