import { base64url } from 'jose';

/**
 * HMAC-SHA256 over WebCrypto, the worker's one signing helper: the console's preview tokens
 * (worker/funnel/preview.ts) and the resume links (worker/resume/resume-token.ts). Signatures
 * travel as base64url; verifying goes through crypto.subtle.verify, which compares in constant
 * time.
 */

const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const;
/** The length of an HMAC-SHA256 signature. */
export const HMAC_BYTES = 32;
const text = new TextEncoder();

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', text.encode(secret), HMAC, false, ['sign', 'verify']);
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
