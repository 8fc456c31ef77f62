import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerify } from './hmac';

/**
 * The value of a cookie the worker signed for one visitor: `<value>.<signature>`, the signature
 * the base64url HMAC-SHA256 (43 characters) of the cookie's name, the visitor id and the value.
 * The routing and experiment cookies keep what decides a visitor's funnel and prices (their
 * route, their first touch, their variants), so a visitor must not be able to write them: a
 * value typed by hand has no signature, an edited one no longer matches it, and one copied from
 * another visitor's browser was signed for another id. The name is signed too, so no cookie's
 * value passes for another's. Pure over WebCrypto; the cookies themselves are
 * worker/middleware/signed-cookies.ts.
 */

/** `unsigned`: no signature of the right shape; `bad_signature`: one that does not verify. */
export type CookieRejection = 'unsigned' | 'bad_signature';

export type CookieVerdict = { ok: true; value: string } | { ok: false; reason: CookieRejection };

/** The length of a signature: HMAC_BYTES in base64url, without padding. */
const SIGNATURE_LENGTH = Math.ceil((HMAC_BYTES * 4) / 3);
/** Browsers keep at most 4096 bytes per cookie: a longer value is none we wrote. */
const MAX_SIGNED_LENGTH = 4096;

/**
 * What is signed. A visitor id is a uuid and a name one of ours, neither with a line feed, so no
 * other name, id and value make the same text.
 */
function signed(name: string, visitorId: string, value: string): string {
  return `${name}\n${visitorId}\n${value}`;
}

/** The cookie's value for `value`, signed for `visitorId` under `key`. */
export async function signCookie(
  key: string,
  name: string,
  visitorId: string,
  value: string,
): Promise<string> {
  return `${value}.${await hmacSign(key, signed(name, visitorId, value))}`;
}

/**
 * The value a cookie holds, if `key` signed it for `visitorId` under this name. One HMAC verify,
 * through crypto.subtle.verify (constant time); a value without a signature costs none.
 */
export async function verifyCookie(
  key: string,
  name: string,
  visitorId: string,
  cookie: string,
): Promise<CookieVerdict> {
  const dot = cookie.lastIndexOf('.');
  const signature = cookie.slice(dot + 1);
  const mac =
    dot === -1 || signature.length !== SIGNATURE_LENGTH ? null : base64urlBytes(signature);
  if (cookie.length > MAX_SIGNED_LENGTH || mac?.length !== HMAC_BYTES) {
    return { ok: false, reason: 'unsigned' };
  }
  const value = cookie.slice(0, dot);
  const authentic = await hmacVerify(key, signed(name, visitorId, value), mac);
  return authentic ? { ok: true, value } : { ok: false, reason: 'bad_signature' };
}
