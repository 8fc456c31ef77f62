import { describeError, logError } from '../../shared/log';
import type { Bindings } from '../env';
import { LIMITER_TIMEOUT_MS, withTimeout } from '../rate-limits/rate-limit-gate';
import type { RateRule } from '../rate-limits/rate-limiter';

/**
 * The pictures' limits, counted by the RATE_LIMITER objects like `/api`'s
 * (worker/rate-limits/rate-limit-gate.ts), so a count holds across isolates and locations.
 */

const MINUTE = 60_000;

/**
 * Uploads per console author: a marketer filling the library uploads a few dozen an hour; a
 * stolen session or a runaway script is stopped before it fills R2 with 5 MB files.
 */
export const UPLOADS_PER_AUTHOR: RateRule & { name: string } = {
  name: 'picture_upload_per_author',
  limit: 60,
  windowMs: 60 * MINUTE,
};

/**
 * Requests per address that reach R2 without finding a made size: a new size being made, or a
 * name nobody uploaded. A page asks for one size of each picture it shows, once per visitor and
 * browser cache, so only a script asks for hundreds a minute.
 */
export const MAKES_PER_ADDRESS: RateRule & { name: string } = {
  name: 'picture_make_per_address',
  limit: 120,
  windowMs: MINUTE,
};

/**
 * Counts one hit of `rule` for `key`: the seconds to wait when refused, else null. A counter
 * that fails or hangs lets the request through and is logged, as `/api`'s do.
 */
export async function refusedFor(
  namespace: Bindings['RATE_LIMITER'],
  rule: RateRule & { name: string },
  key: string,
): Promise<number | null> {
  try {
    const stub = namespace.get(namespace.idFromName(`${rule.name}:${key}`));
    const limits = { limit: rule.limit, windowMs: rule.windowMs };
    const decision = await withTimeout(Promise.resolve(stub.hit(limits)), LIMITER_TIMEOUT_MS);
    return decision.allowed ? null : decision.retryAfterSeconds;
  } catch (error) {
    logError('rate_limiter_failed', { rule: rule.name, detail: describeError(error) });
    return null;
  }
}

/** Deletes per console author: tidying a library is a few an hour, never hundreds. */
export const DELETES_PER_AUTHOR: RateRule & { name: string } = {
  name: 'picture_delete_per_author',
  limit: 60,
  windowMs: 60 * MINUTE,
};
