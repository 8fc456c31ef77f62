import { base64UrlBytes } from '../../shared/base64url';

/**
 * Verification of a Google ID token (the credential Google Identity Services hands the page) before
 * any account is made from it (issue 4, SPEC.md §5 Google sign-in). Pure apart from WebCrypto:
 * the keys, the client id and the clock are the caller's.
 *
 * Rules are Google's "Verify the integrity of the ID token": signed by one of Google's keys,
 * `aud` is our client id, `iss` is Google, `exp` not passed.
 */

/** A JWK as Google's JWKS endpoint lists it; `kid` names the key in the token header. */
export type GoogleJwk = JsonWebKey & { kid?: string };
export interface GoogleKeySet {
  keys: GoogleJwk[];
}

export const GOOGLE_ISSUERS: readonly string[] = [
  'accounts.google.com',
  'https://accounts.google.com',
];

/** Tolerated difference between Google's clock and ours. */
export const CLOCK_SKEW_SECONDS = 60;

export type GoogleTokenRejection =
  | 'malformed'
  | 'unsupported_alg'
  | 'unknown_key'
  | 'bad_signature'
  | 'wrong_audience'
  | 'wrong_issuer'
  | 'expired'
  | 'issued_in_future'
  | 'no_email'
  | 'email_unverified';

export interface GoogleIdentity {
  subject: string;
  email: string;
}

export type GoogleTokenVerdict =
  | { ok: true; identity: GoogleIdentity }
  | { ok: false; reason: GoogleTokenRejection };

function reject(reason: GoogleTokenRejection): GoogleTokenVerdict {
  return { ok: false, reason };
}

function jsonSegment(segment: string): Record<string, unknown> | null {
  const bytes = base64UrlBytes(segment);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

async function importRsaKey(jwk: GoogleJwk): Promise<CryptoKey | null> {
  if (jwk.kty !== 'RSA') return null;
  try {
    return await crypto.subtle.importKey(
      'jwk',
      jwk,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    );
  } catch {
    return null;
  }
}

export async function verifyGoogleIdToken(
  token: string,
  options: { keys: GoogleKeySet; clientId: string; nowSeconds: number },
): Promise<GoogleTokenVerdict> {
  const parts = token.split('.');
  if (parts.length !== 3) return reject('malformed');
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  const header = jsonSegment(headerPart);
  const claims = jsonSegment(payloadPart);
  const signature = base64UrlBytes(signaturePart);
  if (!header || !claims || !signature) return reject('malformed');

  // Only RS256: Google signs with it, and accepting the header's word for anything else is how
  // `alg: none` and HMAC-with-the-public-key forgeries get in.
  if (header.alg !== 'RS256') return reject('unsupported_alg');
  const jwk = options.keys.keys.find(
    (key) => typeof header.kid === 'string' && key.kid === header.kid,
  );
  const key = jwk ? await importRsaKey(jwk) : null;
  if (!key) return reject('unknown_key');
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  const valid = await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, signature, signed);
  if (!valid) return reject('bad_signature');

  // A token minted for another site's client id must not sign anyone in here.
  if (claims.aud !== options.clientId) return reject('wrong_audience');
  if (typeof claims.iss !== 'string' || !GOOGLE_ISSUERS.includes(claims.iss)) {
    return reject('wrong_issuer');
  }
  const now = options.nowSeconds;
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_SECONDS <= now) {
    return reject('expired');
  }
  if (typeof claims.iat !== 'number' || claims.iat - CLOCK_SKEW_SECONDS > now) {
    return reject('issued_in_future');
  }
  if (typeof claims.email !== 'string' || claims.email === '') return reject('no_email');
  // An address Google has not verified could name someone else's account at the portal.
  // Google sends a boolean; some libraries stringify it.
  if (claims.email_verified === false || claims.email_verified === 'false') {
    return reject('email_unverified');
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') return reject('malformed');
  return { ok: true, identity: { subject: claims.sub, email: claims.email } };
}
