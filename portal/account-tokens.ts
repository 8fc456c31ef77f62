import type { SignupResponse } from '../shared/api/contract';
import { sha256Hex } from '../shared/hex';
import { insertAccessTokenStatement } from './store/access-tokens';
import { insertDeeplinkTokenStatement } from './store/deeplink-tokens';
import { randomToken } from './tokens';

/** What a successful sign-up or sign-in hands the client (SPEC.md §7, §3 "Signup"). */
export interface AccountTokens {
  accessToken: string;
  deeplinkToken: string;
}

/**
 * Fresh tokens for a user, with the statements that store them, so a caller can write them in
 * one batch with the user itself: a sign-up either makes the account and its tokens or nothing.
 */
export async function mintAccountTokens(
  db: D1Database,
  userId: string,
  createdAt: string,
): Promise<{ tokens: AccountTokens; statements: D1PreparedStatement[] }> {
  const access = await mintAccessToken(db, userId, createdAt);
  const deeplinkToken = randomToken();
  return {
    tokens: { accessToken: access.accessToken, deeplinkToken },
    statements: [
      access.statement,
      insertDeeplinkTokenStatement(db, { token: deeplinkToken, userId, createdAt }),
    ],
  };
}

/** A fresh bearer token for a user and the statement that stores its hash (SPEC.md §6). */
export async function mintAccessToken(
  db: D1Database,
  userId: string,
  createdAt: string,
): Promise<{ accessToken: string; statement: D1PreparedStatement }> {
  const accessToken = randomToken();
  // Only the token's SHA-256 is stored, so a leaked table is no login.
  const hash = await sha256Hex(accessToken);
  return { accessToken, statement: insertAccessTokenStatement(db, { hash, userId, createdAt }) };
}

/** The answer of both sign-up calls: POST /signup and POST /authorize_social_via_access_token. */
export function signupAnswer(userId: string, tokens: AccountTokens): SignupResponse {
  return {
    data: {
      access_token: tokens.accessToken,
      deeplink_token: tokens.deeplinkToken,
      entity: { external_user_id: userId },
    },
  };
}
