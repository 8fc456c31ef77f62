import { sha256Hex } from '../../shared/hex';
import { logError } from '../../shared/log';
import type { Bindings } from '../env';

/**
 * Whether the signed-in account holds a main subscription bought through the worker: the upsells
 * are sold after a main purchase only (SPEC.md §2 journey). Kept as one fact in the RATE_LIMITER
 * Durable Object named by the SHA-256 of the session's access token, the bearer the product API
 * charged: a visitor cannot name another account's token, so cannot borrow its purchase. One
 * object write per main purchase, one read per upsell charge; forgotten after a day, the longest
 * an unfinished purchase attempt is kept (islands/payments/attempt.ts).
 */
const KEPT_MS = 24 * 60 * 60_000;

/**
 * Where the fact is kept and whose it is: the RATE_LIMITER namespace, the session's access token
 * (worker/request/signed-in-user.ts, null when signed out), and the request id a
 * failure is logged under.
 */
export interface MainPurchaseKeeper {
  namespace: Bindings['RATE_LIMITER'];
  token: string | null;
  requestId: string;
}

/** The keeper of the session `token` (null: signed out), for the request `requestId`. */
export function mainPurchaseKeeper(
  env: Bindings,
  token: string | null,
  requestId: string,
): MainPurchaseKeeper {
  return { namespace: env.RATE_LIMITER, token, requestId };
}

async function stubFor({
  namespace,
  token,
}: MainPurchaseKeeper): Promise<DurableObjectStub<
  import('../rate-limits/rate-limiter').RateLimiter
> | null> {
  if (token === null) return null;
  return namespace.get(namespace.idFromName(`main_purchase:${await sha256Hex(token)}`));
}

/** Notes that this session's account bought a main plan; a failure is logged. */
export async function rememberMainPurchase(keeper: MainPurchaseKeeper): Promise<void> {
  try {
    const stub = await stubFor(keeper);
    await stub?.remember('1', KEPT_MS);
  } catch (error) {
    logError('main_purchase_unsaved', { id: keeper.requestId, detail: String(error) });
  }
}

/**
 * Whether this session's account bought a main plan through the worker: true, false, or null
 * when the store could not be read (the caller answers so the checkout asks again).
 */
export async function holdsMainPurchase(keeper: MainPurchaseKeeper): Promise<boolean | null> {
  try {
    const stub = await stubFor(keeper);
    return stub === null ? false : (await stub.recall()) !== null;
  } catch (error) {
    logError('rate_limiter_failed', { id: keeper.requestId, detail: String(error) });
    return null;
  }
}
