import { Hono } from 'hono';
import { SocialSignInRequest } from '../../shared/api/contract';
import { mintAccountTokens, signupAnswer } from '../account-tokens';
import type { PortalBindings } from '../env';
import { emulatedFault } from '../faults';
import { type GoogleIdentity, readGoogleIdentity } from '../google-identity';
import { validJsonBody } from '../json-body';
import { PortalError } from '../portal-error';
import {
  findUserByEmail,
  findUserByGoogleSubject,
  insertUserStatement,
  isEmailTakenError,
  linkGoogleSubjectStatement,
} from '../store/users';
import { emailTaken } from './signup';

/**
 * POST /authorize_social_via_access_token (SPEC.md §7) with driver 'google': signs in the
 * Google account's user, linking it to an email account of the same address, or makes one.
 * Answers the shape of POST /signup.
 */
export const googleSignInRoutes = new Hono<{ Bindings: PortalBindings }>().post(
  '/authorize_social_via_access_token',
  emulatedFault('authorize-social'),
  async (c) => {
    const request = await validJsonBody(c, SocialSignInRequest);
    const reading = readGoogleIdentity(request.access_token);
    if (!reading.ok) throw new PortalError(422, 'social_sign_in_failed', reading.reason);
    const db = c.env.PORTAL_DB;
    const createdAt = new Date().toISOString();
    const account = await resolveAccount(db, reading.identity, (userId) =>
      insertUserStatement(db, {
        id: userId,
        email: reading.identity.email,
        name: reading.identity.name ?? reading.identity.email,
        userUuid: request.user_uuid,
        landingType: request.landing_type,
        registrationSource: 'google',
        googleSubject: reading.identity.subject,
        createdAt,
        quizAnswers: request.quiz_answers,
      }),
    );
    const { tokens, statements } = await mintAccountTokens(db, account.userId, createdAt);
    try {
      await db.batch([...account.statements, ...statements]);
    } catch (error) {
      // Another request made an account for this address meanwhile.
      if (isEmailTakenError(error)) throw emailTaken();
      throw error;
    }
    return c.json(signupAnswer(account.userId, tokens));
  },
);

/** The user to sign in and what must be written for them, before their tokens. */
async function resolveAccount(
  db: D1Database,
  identity: GoogleIdentity,
  createUser: (userId: string) => D1PreparedStatement,
): Promise<{ userId: string; statements: D1PreparedStatement[] }> {
  const bySubject = await findUserByGoogleSubject(db, identity.subject);
  if (bySubject) return { userId: bySubject.id, statements: [] };

  const byEmail = await findUserByEmail(db, identity.email);
  if (!byEmail) {
    const userId = crypto.randomUUID();
    return { userId, statements: [createUser(userId)] };
  }
  if (byEmail.google_subject !== null) {
    // The address belongs to a different Google account (Google recycles addresses rarely,
    // but signing one person into another's account is the worse failure).
    throw new PortalError(
      422,
      'social_sign_in_failed',
      'This email address is linked to another Google account.',
    );
  }
  return {
    userId: byEmail.id,
    statements: [linkGoogleSubjectStatement(db, byEmail.id, identity.subject)],
  };
}
