import { type ApiRefusal, refusal } from './api-error';

const PRINTABLE_ASCII = /^[\x21-\x7e]{1,255}$/;

export type IdempotencyKeyReading =
  | { ok: true; key: string | null }
  | { ok: false; refusal: ApiRefusal };

/**
 * The page's `Idempotency-Key` for a POST, passed on to the portal so a retried subscription
 * call (a timeout, a double click) answers the first charge instead of charging the card again.
 * Held to the portal's own rule (1 to 255 printable characters) so a bad key is refused here.
 */
export function readIdempotencyKey(header: string | undefined): IdempotencyKeyReading {
  const key = header?.trim();
  if (!key) return { ok: true, key: null };
  return PRINTABLE_ASCII.test(key)
    ? { ok: true, key }
    : { ok: false, refusal: refusal('invalid_request') };
}
