import * as z from 'zod/mini';
import type { PurchaseRequest } from './purchase-types';

/**
 * One purchase attempt as it survives a reload, so a reload during polling resumes the same
 * attempt rather than starting a second charge. It holds what the state machine needs to repeat
 * a subscription call of this attempt without the page that started it: the idempotency key, the
 * request body's parts, and how far the charge got. Checked with zod/mini when read back from
 * storage: the checkout has no other use for zod, and full zod would add about 23 KB (brotli).
 */
export const PurchaseAttempt = z.object({
  /** Sent as `Idempotency-Key` with every subscription POST of the attempt. */
  key: z.string().check(z.minLength(1)),
  planId: z.string().check(z.minLength(1)),
  route: z.enum(['polling', 'direct']),
  gateway: z.string(),
  coupon: z.nullable(z.string()),
  userData: z.record(z.string(), z.unknown()),
  /**
   * The renewal consent ticked before Pay, with the terms it was ticked for; attempts stored
   * before it was kept read as null, and those stored before the terms were named have none.
   */
  renewalConsent: z._default(
    z.nullable(
      z.object({
        text_version: z.string(),
        language: z.string(),
        terms: z.optional(
          z.object({
            plan_id: z.string(),
            currency: z.string(),
            amount: z.number(),
            renewal_amount: z.number(),
          }),
        ),
      }),
    ),
    null,
  ),
  method: z.enum(['card-fields', 'nonce', 'on-file']),
  /**
   * The payment method nonce sent with the POSTs (the verified one after Braintree's 3-D Secure);
   * null for the method on file. An attempt is stored only once its payment method is known,
   * right before its first POST: a stored attempt may have charged.
   */
  nonce: z.nullable(z.string()),
  /**
   * The card's BIN from creating its payment method (CardPaymentMethod.bin), for Braintree's
   * 3-D Secure verification after a reload; null when unknown. Attempts stored before it was
   * kept read as null.
   */
  bin: z._default(z.nullable(z.string()), null),
  /**
   * 'first' until the visitor passed 3-D Secure, then 'authenticated': the repeated call carries
   * the intent id (or the verified nonce) under the derived key `${key}:3ds`.
   */
  step: z.enum(['first', 'authenticated']),
  /** The payment intent id confirmCardPayment resolved (polling route, step 'authenticated'). */
  intentId: z.nullable(z.string()),
  /** The polling result of the latest POST, once the portal named it. */
  pollingId: z.nullable(z.string()),
  /** Epoch ms. */
  startedAt: z.number(),
});
export type PurchaseAttempt = z.infer<typeof PurchaseAttempt>;

/** Where the attempt is kept between a click and a reload: the persisted `$checkout` slice in the page. */
export interface AttemptStore {
  load(): PurchaseAttempt | null;
  save(attempt: PurchaseAttempt): void;
  clear(): void;
}

/** A stored value as an attempt: null when it is missing or malformed (edited by hand, an older format). */
export function readAttempt(stored: unknown): PurchaseAttempt | null {
  const parsed = PurchaseAttempt.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/**
 * An attempt older than this is forgotten rather than resumed: its polling result is long final
 * (or lost), and a visitor returning the next day starts afresh.
 */
export const ATTEMPT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function isStale(attempt: PurchaseAttempt, now: number): boolean {
  const age = now - attempt.startedAt;
  return age < 0 || age > ATTEMPT_MAX_AGE_MS;
}

/** The attempt of a request whose payment method is known, before its first POST. */
export function newAttempt(
  request: PurchaseRequest,
  started: { key: string; nonce: string | null; bin: string | null; now: number },
): PurchaseAttempt {
  return {
    key: started.key,
    planId: request.planId,
    route: request.route,
    gateway: request.gateway,
    coupon: request.coupon,
    userData: request.userData,
    renewalConsent: request.renewalConsent ?? null,
    method: request.method.kind,
    nonce: started.nonce,
    bin: started.bin,
    step: 'first',
    intentId: null,
    pollingId: null,
    startedAt: started.now,
  };
}

/**
 * The attempt's key for its current step. The portal answers a repeated key with the first
 * charge's answer, so the call repeated after 3-D Secure, which carries new data (the
 * intent id or the verified nonce), needs a key of its own; deriving it keeps it stable across
 * retries and reloads of that step.
 */
export function idempotencyKeyOf(attempt: PurchaseAttempt): string {
  return attempt.step === 'first' ? attempt.key : `${attempt.key}:3ds`;
}
