import { CompactEncrypt, compactDecrypt } from 'jose';

/**
 * A signed-up visitor's way out carries their one-time login token (the `deeplink_token` the
 * sign-up answered, SPEC.md §7) so the real browser can sign in with it. The token waits in
 * EVENTS_DB's resume_links for up to 15 minutes, beside analytics tables people read, so it is
 * stored sealed: a JWE (dir, A256GCM) under a key derived from RESUME_LINK_KEY with HKDF, whose
 * protected header names the record it belongs to. A row copied out of the database, or moved to
 * another record, opens nothing.
 */

const HKDF_INFO = new TextEncoder().encode('geofunnel resume sign-in v1');
const HEADER = { alg: 'dir', enc: 'A256GCM' } as const;

async function sealingKey(secret: string): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    'HKDF',
    false,
    ['deriveBits'],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: HKDF_INFO },
    material,
    256,
  );
  return new Uint8Array(bits);
}

/** The login token sealed for the record `recordId`. */
export async function sealSignIn(secret: string, recordId: string, token: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(token))
    .setProtectedHeader({ ...HEADER, rid: recordId })
    .encrypt(await sealingKey(secret));
}

/** The login token sealed for `recordId`, or null when `sealed` is not that (altered, moved). */
export async function openSignIn(
  secret: string,
  recordId: string,
  sealed: string,
): Promise<string | null> {
  try {
    const { plaintext, protectedHeader } = await compactDecrypt(sealed, await sealingKey(secret), {
      keyManagementAlgorithms: [HEADER.alg],
      contentEncryptionAlgorithms: [HEADER.enc],
    });
    if (protectedHeader.rid !== recordId) return null;
    return new TextDecoder().decode(plaintext);
  } catch {
    return null;
  }
}
