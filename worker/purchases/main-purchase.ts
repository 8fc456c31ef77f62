import type { Context } from 'hono';
import { hex } from '../../shared/hex';
import { logError } from '../../shared/log';
import { sessionToken } from '../api/session-cookie';
import type { ApiEnv } from '../env';

/**
 * Whether the signed-in account holds a main subscription bought through the worker: the upsells
 * are sold after a main purchase only (SPEC.md §2 journey). Kept as one fact in the RATE_LIMITER
 * Durable Object named by the SHA-256 of the session's access token, the bearer the product API
 * charged: a visitor cannot name another account's token, so cannot borrow its purchase. One
 * object write per main purchase, one read per upsell charge; forgotten after a day, the longest
 * an unfinished purchase attempt is kept (islands/payments/attempt.ts).
 */
const KEPT_MS = 24 * 60 * 60_000;

async function stubFor<E extends ApiEnv>(
  c: Context<E>,
): Promise<DurableObjectStub<import('../api/rate-limiter').RateLimiter> | null> {
  const token = sessionToken(c);
  if (token === null) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const namespace = c.env.RATE_LIMITER;
  return namespace.get(namespace.idFromName(`main_purchase:${hex(new Uint8Array(digest))}`));
}

/** Notes that this session's account bought a main plan; a failure is logged. */
export async function rememberMainPurchase<E extends ApiEnv>(c: Context<E>): Promise<void> {
  try {
    const stub = await stubFor(c);
    await stub?.remember('1', KEPT_MS);
  } catch (error) {
    logError('main_purchase_unsaved', { id: c.get('requestId'), detail: String(error) });
  }
}

/**
 * Whether this session's account bought a main plan through the worker: true, false, or null
 * when the store could not be read (the caller answers so the checkout asks again).
 */
export async function holdsMainPurchase<E extends ApiEnv>(c: Context<E>): Promise<boolean | null> {
  try {
    const stub = await stubFor(c);
    return stub === null ? false : (await stub.recall()) !== null;
  } catch (error) {
    logError('rate_limiter_failed', { id: c.get('requestId'), detail: String(error) });
    return null;
  }
}
