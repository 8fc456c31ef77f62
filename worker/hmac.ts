import { base64url } from 'jose';

/**
 * HMAC-SHA256 over WebCrypto, the worker's one signing helper: the console's preview tokens
 * (worker/funnel/preview.ts), the resume links (worker/resume/resume-token.ts) and the routing
 * and experiment cookies (worker/signed-cookie.ts). Signatures
 * travel as base64url; verifying goes through crypto.subtle.verify, which compares in constant
 * time.
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
