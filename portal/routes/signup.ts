import { Hono } from 'hono';
import { SignupRequest } from '../../shared/api/contract';
import { mintAccountTokens, signupAnswer } from '../account-tokens';
import type { PortalBindings } from '../env';
import { emulatedFault } from '../faults';
import { validJsonBody } from '../json-body';
import { PortalError } from '../portal-error';
import { insertUserStatement, isEmailTakenError } from '../store/users';

/**
 * The product API's text for a taken address; the client maps it to the translated
 * 'email exists' (SPEC.md §5).
 */
const EMAIL_TAKEN_MESSAGE = 'The email has already been taken.';

export function emailTaken(): PortalError {
  return new PortalError(422, 'email_taken', EMAIL_TAKEN_MESSAGE);
}

/** POST /signup (SPEC.md §7): a new account by email, with its access and deeplink tokens. */
export const signupRoutes = new Hono<{ Bindings: PortalBindings }>().post(
  '/signup',
  emulatedFault('signup'),
  async (c) => {
    const request = await validJsonBody(c, SignupRequest);
    const db = c.env.PORTAL_DB;
    const userId = crypto.randomUUID();
    const createdAt = new Date().toISOString();
    const { tokens, statements } = await mintAccountTokens(db, userId, createdAt);
    const user = insertUserStatement(db, {
      id: userId,
      email: request.email,
      // SPEC.md §5: the name falls back to the email when none is given.
      name: request.name || request.email,
      userUuid: request.user_uuid,
      landingType: request.landing_type,
      registrationSource: 'email',
      googleSubject: null,
      createdAt,
      quizAnswers: request.quiz_answers,
    });
    try {
      await db.batch([user, ...statements]);
    } catch (error) {
      if (isEmailTakenError(error)) throw emailTaken();
      throw error;
    }
    return c.json(signupAnswer(userId, tokens));
  },
);
