import { base64url } from 'jose';
import { base64urlBytes } from '../signing';

/**
 * A signed-up visitor's way out carries their one-time login token (the `deeplink_token` the
 * sign-up answered, SPEC.md §7) so the real browser can sign in with it. The token waits in
 * EVENTS_DB's resume_links for up to 15 minutes, beside analytics tables people read, so it is
 * stored sealed: AES-256-GCM under a key derived from RESUME_LINK_KEY with HKDF, with the id of
 * the record it belongs to as the cipher's additional data. A row copied out of the database, or
 * moved to another record, opens nothing.
 *
 * Sealed as `v1.<nonce>.<ciphertext and tag>`, both base64url: WebCrypto's own AES-GCM, where a
 * JWE (jose's) carried its encryption code (some 5 KB of the worker's gzip) for one algorithm.
 * A link sealed by the JWE before a deploy no longer opens its sign-in; that visitor signs in
 * again, as after any refused seal.
 */

const HKDF_INFO = new TextEncoder().encode('geofunnel resume sign-in v1');
const VERSION = 'v1';
/** AES-GCM's recommended nonce length, fresh for every seal. */
const NONCE_BYTES = 12;
const text = new TextEncoder();

async function sealingKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', text.encode(secret), 'HKDF', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: HKDF_INFO },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The cipher's parameters: the nonce and the record the seal is bound to. */
function gcm(nonce: Uint8Array, recordId: string) {
  return { name: 'AES-GCM', iv: nonce, additionalData: text.encode(recordId) } as const;
}

/** The login token sealed for the record `recordId`. */
export async function sealSignIn(secret: string, recordId: string, token: string): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = await crypto.subtle.encrypt(
    gcm(nonce, recordId),
    await sealingKey(secret),
    text.encode(token),
  );
  return [VERSION, base64url.encode(nonce), base64url.encode(new Uint8Array(sealed))].join('.');
}

/** The login token sealed for `recordId`, or null when `sealed` is not that (altered, moved). */
export async function openSignIn(
  secret: string,
  recordId: string,
  sealed: string,
): Promise<string | null> {
  const [version, nonceText, cipherText, ...rest] = sealed.split('.');
  if (version !== VERSION || rest.length > 0) return null;
  const nonce = base64urlBytes(nonceText ?? '');
  const cipher = base64urlBytes(cipherText ?? '');
  if (nonce?.length !== NONCE_BYTES || !cipher) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      gcm(nonce, recordId),
      await sealingKey(secret),
      cipher,
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
