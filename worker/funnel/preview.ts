import { base64url } from 'jose';
import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerify } from '../hmac';

/**
 * A marketer's preview of one variant (the console's preview links): a token naming the variant
 * and when the preview ends, signed with HMAC-SHA256 so that no visitor can make one and skip
 * the split test, or hide their visits from the experiment. Pure over WebCrypto; the cookie
 * that carries it is preview-cookie.ts.
 *
 * The token reads `<variant, base64url>.<expiry, epoch seconds>.<HMAC of the first two, base64url>`:
 * a variant key may hold any character, so it is encoded rather than split on.
 */

/** How long a preview lasts: time to walk a flow, short enough that a forgotten one ends. */
export const PREVIEW_TTL_SECONDS = 60 * 60;

export type PreviewRejection = 'malformed' | 'bad_signature' | 'expired';

export type PreviewVerdict =
  | { ok: true; variant: string; expiresAt: number }
  | { ok: false; reason: PreviewRejection };

const EXPIRY = /^\d{1,12}$/;
const utf8 = new TextDecoder();

/** A preview token for `variant`, valid until `expiresAt` (epoch seconds). */
export async function signPreview(
  secret: string,
  variant: string,
  expiresAt: number,
): Promise<string> {
  const signed = `${base64url.encode(variant)}.${Math.floor(expiresAt)}`;
  return `${signed}.${await hmacSign(secret, signed)}`;
}

/**
 * The variant a token previews, if `secret` signed it and it has not expired at `nowMs`. The
 * signature is checked by crypto.subtle.verify, which compares in constant time, and before the
 * expiry, so a forged token is reported as forged whatever time it names.
 */
export async function verifyPreview(
  secret: string,
  token: string,
  nowMs: number,
): Promise<PreviewVerdict> {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [variantPart = '', expiryPart = '', macPart = ''] = parts;
  const mac = base64urlBytes(macPart);
  const variantBytes = base64urlBytes(variantPart);
  if (!EXPIRY.test(expiryPart) || mac?.length !== HMAC_BYTES || !variantBytes) {
    return { ok: false, reason: 'malformed' };
  }
  const authentic = await hmacVerify(secret, `${variantPart}.${expiryPart}`, mac);
  if (!authentic) return { ok: false, reason: 'bad_signature' };
  const expiresAt = Number(expiryPart);
  if (expiresAt * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, variant: utf8.decode(variantBytes), expiresAt };
}
