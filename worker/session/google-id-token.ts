import {
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { type JwtRejection, jwtRejectionOf } from './jwt-rejection';

/**
 * Verification of a Google ID token (the credential Google Identity Services hands the page) before
 * any account is made from it (SPEC.md §5 Google sign-in). jose checks the signature and the
 * registered claims; this file names Google's rules and adds the ones jose cannot know.
 *
 * Rules are Google's "Verify the integrity of the ID token": signed by one of Google's keys,
 * `aud` is our client id, `iss` is Google, `exp` not passed; and the address must be verified.
 */

/**
 * Where the verifier gets Google's public keys: jose's key lookup (worker/session/google-keys.ts).
 */
export type GoogleKeys = JWTVerifyGetKey;

const GOOGLE_ISSUERS: readonly string[] = ['accounts.google.com', 'https://accounts.google.com'];

/** Tolerated difference between Google's clock and ours. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * Google's ID tokens live an hour from `iat`. Giving jose the age is also what makes it refuse an
 * `iat` in the future.
 */
const MAX_TOKEN_AGE_SECONDS = 3600;

/** jose's refusals, but a future `iat` is named as Google's rules name it. */
export type GoogleTokenRejection =
  | Exclude<JwtRejection, 'not_yet_valid'>
  | 'issued_in_future'
  | 'no_email'
  | 'email_unverified';

export interface GoogleIdentity {
  subject: string;
  email: string;
}

export type GoogleTokenVerdict =
  | { ok: true; identity: GoogleIdentity }
  | { ok: false; reason: GoogleTokenRejection }
  /**
   * Google's key set could not be had (network, an error answer, not a key set): not the token's
   * fault.
   */
  | { ok: false; reason: 'keys_unavailable'; cause: unknown };

/**
 * Thrown through jose by the key lookup, so a key set out of reach is told apart from a bad token.
 */
class KeysUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super('Google key set unavailable');
  }
}

function reject(reason: GoogleTokenRejection): GoogleTokenVerdict {
  return { ok: false, reason };
}

/** What a jose error says about the token, in our words. */
function rejectionOf(error: unknown): GoogleTokenRejection {
  const rejection = jwtRejectionOf(error);
  return rejection === 'not_yet_valid' ? 'issued_in_future' : rejection;
}

function hasJsonSegments(token: string): boolean {
  try {
    decodeProtectedHeader(token);
    decodeJwt(token);
    return true;
  } catch {
    return false;
  }
}

/** Our rules on a token jose has verified: a single audience, an address Google verified. */
function identityOf(claims: JWTPayload): GoogleTokenVerdict {
  // A list of audiences is another party's token that merely includes us; Google sends a string.
  if (typeof claims.aud !== 'string') return reject('wrong_audience');
  if (typeof claims.email !== 'string' || claims.email === '') return reject('no_email');
  // An address Google has not verified could name someone else's account at the portal.
  // Google sends a boolean; some libraries stringify it.
  if (claims.email_verified === false || claims.email_verified === 'false') {
    return reject('email_unverified');
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') return reject('malformed');
  return { ok: true, identity: { subject: claims.sub, email: claims.email } };
}

export async function verifyGoogleIdToken(
  token: string,
  options: { keys: GoogleKeys; clientId: string; nowSeconds: number },
): Promise<GoogleTokenVerdict> {
  if (!hasJsonSegments(token)) return reject('malformed');
  const googleKey: JWTVerifyGetKey = async (header, jws) => {
    // Google names its key in every token; without a kid jose would try each key of the set.
    if (typeof header.kid !== 'string') throw new errors.JWKSNoMatchingKey();
    try {
      return await options.keys(header, jws);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) throw error;
      throw new KeysUnavailable(error);
    }
  };
  try {
    const { payload } = await jwtVerify(token, googleKey, {
      // Only RS256: Google signs with it, and accepting the header's word for anything else is
      // how `alg: none` and HMAC-with-the-public-key forgeries get in.
      algorithms: ['RS256'],
      // A token minted for another site's client id must not sign anyone in here.
      audience: options.clientId,
      issuer: [...GOOGLE_ISSUERS],
      requiredClaims: ['exp'],
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      clockTolerance: CLOCK_SKEW_SECONDS,
      currentDate: new Date(options.nowSeconds * 1000),
    });
    return identityOf(payload);
  } catch (error) {
    if (error instanceof KeysUnavailable) {
      return { ok: false, reason: 'keys_unavailable', cause: error.reason };
    }
    return reject(rejectionOf(error));
  }
}
