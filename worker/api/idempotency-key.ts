import { parseIdempotencyKey } from '../../shared/api/contract';
import { type ApiRefusal, refusal } from '../http/api-error';

export type IdempotencyKeyReading =
  | { ok: true; key: string | null }
  | { ok: false; refusal: ApiRefusal };

/**
 * The page's `Idempotency-Key` for a POST, passed on to the portal so a retried subscription
 * call (a timeout, a double click) answers the first charge instead of charging the card again.
 * Held to the contract's rule (parseIdempotencyKey) so a bad key is refused here.
 */
export function readIdempotencyKey(header: string | undefined): IdempotencyKeyReading {
  const parsed = parseIdempotencyKey(header);
  return parsed.ok ? parsed : { ok: false, refusal: refusal('invalid_request') };
}
