import { decodeJwt } from 'jose';
import * as z from 'zod';

/**
 * Who a Google ID token names. The emulator only *decodes* the token's payload: the worker has
 * already verified its signature, `aud`, `iss` and `exp` against Google's keys before forwarding
 * it, and the real product API verifies it again on its side. Nothing here may be
 * taken as proof of identity outside this emulator.
 */
export interface GoogleIdentity {
  subject: string;
  email: string;
  name: string | null;
}

export type GoogleIdentityReading =
  | { ok: true; identity: GoogleIdentity }
  | { ok: false; reason: string };

const IdTokenPayload = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().trim().min(3).max(254).includes('@').optional(),
  // Google sends a boolean; some libraries stringify it.
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  name: z.string().trim().max(200).optional(),
});

const UNREADABLE = 'The Google token could not be read.';

export function readGoogleIdentity(idToken: string): GoogleIdentityReading {
  let json: unknown;
  try {
    json = decodeJwt(idToken);
  } catch {
    return { ok: false, reason: UNREADABLE };
  }
  const parsed = IdTokenPayload.safeParse(json);
  if (!parsed.success) return { ok: false, reason: UNREADABLE };
  const { sub, email, email_verified, name } = parsed.data;
  if (!email) return { ok: false, reason: 'The Google account has no email address.' };
  if (email_verified === false || email_verified === 'false') {
    return { ok: false, reason: 'The Google account’s email address is not verified.' };
  }
  return { ok: true, identity: { subject: sub, email, name: name || null } };
}
