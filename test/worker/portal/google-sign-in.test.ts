import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SignupResponse } from '../../../shared/api/contract';
import { failureOf, freshEmail, googleIdToken as idToken, postJson, signUp } from './portal-client';

function signInWithGoogle(token: string) {
  return postJson('/authorize_social_via_access_token', {
    access_token: token,
    driver: 'google',
    landing_type: 'signup',
    user_uuid: crypto.randomUUID(),
  });
}

async function signedInUserId(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  return SignupResponse.parse(await response.json()).data.entity.external_user_id;
}

function userRow(id: string) {
  return env.PORTAL_DB.prepare(
    'SELECT email, name, registration_source, google_subject FROM users WHERE id = ?',
  )
    .bind(id)
    .first();
}

describe('POST /authorize_social_via_access_token', () => {
  it('makes a Google account from the token’s sub, email and name', async () => {
    const email = freshEmail();
    const subject = crypto.randomUUID();
    const userId = await signedInUserId(
      await signInWithGoogle(idToken({ sub: subject, email, name: 'Zoë Ünal' })),
    );
    expect(await userRow(userId)).toEqual({
      email,
      name: 'Zoë Ünal',
      registration_source: 'google',
      google_subject: subject,
    });
  });

  it('signs the same Google account into the same user, with a new access token', async () => {
    const token = idToken({ sub: crypto.randomUUID(), email: freshEmail() });
    const first = await signInWithGoogle(token);
    const firstBody = SignupResponse.parse(await first.json());
    const second = await signInWithGoogle(token);
    const secondBody = SignupResponse.parse(await second.json());

    expect(secondBody.data.entity).toEqual(firstBody.data.entity);
    expect(secondBody.data.access_token).not.toBe(firstBody.data.access_token);
  });

  it('links Google to an email account of the same address, in any case', async () => {
    const email = freshEmail();
    const { userId } = await signUp({ email });
    const subject = crypto.randomUUID();

    const linked = await signedInUserId(
      await signInWithGoogle(idToken({ sub: subject, email: email.toUpperCase() })),
    );

    expect(linked).toBe(userId);
    expect(await userRow(userId)).toMatchObject({
      registration_source: 'email',
      google_subject: subject,
    });
  });

  it('names the account after the email when the token has no name (SPEC.md §5)', async () => {
    const email = freshEmail();
    const userId = await signedInUserId(
      await signInWithGoogle(idToken({ sub: crypto.randomUUID(), email })),
    );
    expect(await userRow(userId)).toMatchObject({ name: email });
  });

  it('refuses an address already linked to another Google account', async () => {
    const email = freshEmail();
    await signInWithGoogle(idToken({ sub: crypto.randomUUID(), email }));
    const response = await signInWithGoogle(idToken({ sub: crypto.randomUUID(), email }));
    expect(await failureOf(response)).toEqual({
      status: 422,
      code: 'social_sign_in_failed',
      messages: ['This email address is linked to another Google account.'],
    });
  });

  it.each([
    ['not a JWT', 'not-a-jwt', 'The Google token could not be read.'],
    ['a payload that is not JSON', 'e30.bm90IGpzb24.c2ln', 'The Google token could not be read.'],
    ['no sub', idToken({ email: 'a@b.test' }), 'The Google token could not be read.'],
    ['no email', idToken({ sub: '123' }), 'The Google account has no email address.'],
    [
      'an unverified email',
      idToken({ sub: '123', email: 'a@b.test', email_verified: false }),
      'The Google account’s email address is not verified.',
    ],
  ])('answers 422 for a token with %s', async (_, token, message) => {
    const before = await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM users').first('n');
    expect(await failureOf(await signInWithGoogle(token))).toEqual({
      status: 422,
      code: 'social_sign_in_failed',
      messages: [message],
    });
    expect(await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM users').first('n')).toBe(before);
  });

  it('answers 400 for a driver other than google', async () => {
    const response = await postJson('/authorize_social_via_access_token', {
      access_token: idToken({ sub: '1', email: freshEmail() }),
      driver: 'facebook',
      landing_type: 'signup',
      user_uuid: crypto.randomUUID(),
    });
    const failure = await failureOf(response);
    expect(failure.status).toBe(400);
    expect(failure.messages[0]).toMatch(/^driver: /);
  });
});
