import { hex } from '../../shared/hex';
import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerify } from '../signing';

/**
 * A resume link's token, `<id>.<signature>`: a random 128-bit id (hex) naming the stored record
 * (resume-store.ts), and its HMAC-SHA256 under RESUME_LINK_KEY (base64url). The id alone already
 * cannot be guessed; the signature lets the worker turn away a made-up or altered token before
 * it touches the database.
 */

const TOKEN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

/** A fresh record id: 128 random bits. */
export function newResumeId(): string {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

export async function signResumeId(secret: string, id: string): Promise<string> {
  return `${id}.${await hmacSign(secret, id)}`;
}

export type ResumeTokenVerdict =
  | { ok: true; id: string }
  | { ok: false; reason: 'malformed' | 'bad_signature' };

/** The record id a token names, if `secret` signed it (compared in constant time). */
export async function verifyResumeToken(
  secret: string,
  token: string,
): Promise<ResumeTokenVerdict> {
  const [, id, signature] = TOKEN.exec(token) ?? [];
  const mac = signature === undefined ? null : base64urlBytes(signature);
  if (id === undefined || mac?.length !== HMAC_BYTES) return { ok: false, reason: 'malformed' };
  const authentic = await hmacVerify(secret, id, mac);
  return authentic ? { ok: true, id } : { ok: false, reason: 'bad_signature' };
}
