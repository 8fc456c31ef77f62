import { errors } from 'jose';

/** Why jose refused a signed token, in the words both our verifiers log (Google's, Access's). */
export type JwtRejection =
  | 'malformed'
  | 'unsupported_alg'
  | 'unknown_key'
  | 'bad_signature'
  | 'wrong_audience'
  | 'wrong_issuer'
  | 'expired'
  | 'not_yet_valid';

/** What a jose error says about the token. */
export function jwtRejectionOf(error: unknown): JwtRejection {
  if (error instanceof errors.JOSEAlgNotAllowed) return 'unsupported_alg';
  if (error instanceof errors.JWKSNoMatchingKey) return 'unknown_key';
  if (error instanceof errors.JWKSMultipleMatchingKeys) return 'unknown_key';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'wrong_audience';
    if (error.claim === 'iss') return 'wrong_issuer';
    if (error.claim === 'exp') return 'expired';
    if (error.claim === 'nbf') return 'not_yet_valid';
    if (error.claim === 'iat' && error.reason === 'check_failed') return 'not_yet_valid';
  }
  return 'malformed';
}
