import { base64url } from 'jose';

/**
 * HMAC-SHA256 over WebCrypto, the worker's one way of signing: the console's preview tokens
 * (worker/preview/preview.ts), the resume links (worker/resume/resume-token.ts) and the routing
 * and experiment cookies (signCookie below). Signatures travel as base64url; verifying goes
 * through crypto.subtle.verify, which compares in constant time.
 */

const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const;
/** The length of an HMAC-SHA256 signature. */
export const HMAC_BYTES = 32;
const text = new TextEncoder();

/**
 * Imported keys by secret, kept for the isolate: importing costs more than signing a cookie, and
 * a page request verifies up to four of them. Kept once imported (not the pending promise, which
 * belongs to the request that started it). The secrets are the few in the environment (and a
 * test's), so the map stays small; past KEYS_KEPT it starts over rather than grow.
 */
const imported = new Map<string, CryptoKey>();
const KEYS_KEPT = 16;

async function hmacKey(secret: string): Promise<CryptoKey> {
  const kept = imported.get(secret);
  if (kept) return kept;
  const key = await crypto.subtle.importKey('raw', text.encode(secret), HMAC, false, [
    'sign',
    'verify',
  ]);
  if (imported.size >= KEYS_KEPT) imported.clear();
  imported.set(secret, key);
  return key;
}

/** The base64url HMAC-SHA256 of `message` under `secret`. */
export async function hmacSign(secret: string, message: string): Promise<string> {
  const mac = await crypto.subtle.sign(HMAC, await hmacKey(secret), text.encode(message));
  return base64url.encode(new Uint8Array(mac));
}

/** The bytes of a base64url segment, or null when it is not base64url. */
export function base64urlBytes(segment: string): Uint8Array | null {
  try {
    return base64url.decode(segment);
  } catch {
    return null;
  }
}

/**
 * The keys a signature is checked against: `current`, and while it is rotated the value before
 * (a `…_PREVIOUS` secret; docs/operate.md, "Rotating a signing key"), which never signs.
 */
export function keysWithPrevious(current: string, previous: string | undefined): string[] {
  // As put, as the current key is used: a key is its bytes, a trailing newline included.
  return previous?.trim() && previous !== current ? [current, previous] : [current];
}

/**
 * Whether any of `secrets` signed `message` as `mac`: the current key first, then one kept while
 * it is rotated (docs/operate.md, "Rotating a signing key").
 */
export async function hmacVerifyAny(
  secrets: string | readonly string[],
  message: string,
  mac: Uint8Array,
): Promise<boolean> {
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    if (await hmacVerify(secret, message, mac)) return true;
  }
  return false;
}

/** Whether `mac` (HMAC_BYTES long, see base64urlBytes) is the signature of `message`. */
export async function hmacVerify(
  secret: string,
  message: string,
  mac: Uint8Array,
): Promise<boolean> {
  return crypto.subtle.verify(
    HMAC,
    await hmacKey(secret),
    mac as Uint8Array<ArrayBuffer>,
    text.encode(message),
  );
}

/**
 * The value of a cookie the worker signed for one visitor: `<value>.<signature>`, the signature
 * the base64url HMAC-SHA256 (43 characters) of the cookie's name, the visitor id and the value.
 * The routing and experiment cookies keep what decides a visitor's funnel and prices (their
 * route, their first touch, their variants), so a visitor must not be able to write them: a
 * value typed by hand has no signature, an edited one no longer matches it, and one copied from
 * another visitor's browser was signed for another id. The name is signed too, so no cookie's
 * value passes for another's. Pure over WebCrypto; the cookies themselves are
 * worker/request/cookies.ts.
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
  key: string | readonly string[],
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
  const authentic = await hmacVerifyAny(key, signed(name, visitorId, value), mac);
  return authentic ? { ok: true, value } : { ok: false, reason: 'bad_signature' };
}
