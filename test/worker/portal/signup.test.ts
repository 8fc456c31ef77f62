import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { listUsers } from '../../../portal/store/listings';
import { SignupResponse } from '../../../shared/api/contract';
import {
  bearer,
  callPortal,
  failureOf,
  freshEmail,
  postJson,
  signUp,
  signupBody,
} from './portal-client';

describe('POST /signup', () => {
  it('makes an account and answers its access token, deeplink token and user id', async () => {
    const body = signupBody({ name: 'Ann Example', landing_type: 'searching' });
    const response = await postJson('/signup', body);

    expect(response.status).toBe(200);
    const { data } = SignupResponse.parse(await response.json());
    // 32 random bytes in base64url are 43 characters.
    expect(data.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.deeplink_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const user = await env.PORTAL_DB.prepare(
      'SELECT email, name, user_uuid, landing_type, registration_source FROM users WHERE id = ?',
    )
      .bind(data.entity.external_user_id)
      .first();
    expect(user).toEqual({
      email: body.email,
      name: 'Ann Example',
      user_uuid: body.user_uuid,
      landing_type: 'searching',
      registration_source: 'email',
    });
  });

  it('lists the new account as npm run portal users shows it', async () => {
    const email = freshEmail();
    const { userId } = await signUp({ email, name: 'Ann Example' });
    const listed = (await listUsers(env.PORTAL_DB)).find((user) => user.id === userId);
    expect(listed).toMatchObject({
      email,
      name: 'Ann Example',
      registration_source: 'email',
    });
    expect(listed?.created_at).toEqual(expect.any(String));
  });

  it('stores only the SHA-256 of the access token', async () => {
    const { accessToken, userId } = await signUp();
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');

    const rows = await env.PORTAL_DB.prepare(
      'SELECT token_hash FROM access_tokens WHERE user_id = ?',
    )
      .bind(userId)
      .all<{ token_hash: string }>();
    expect(rows.results).toEqual([{ token_hash: hex }]);
    const leaked = await env.PORTAL_DB.prepare(
      'SELECT COUNT(*) AS n FROM access_tokens WHERE token_hash = ?',
    )
      .bind(accessToken)
      .first('n');
    expect(leaked).toBe(0);
  });

  it('names the account after the email when no name is given (SPEC.md §5)', async () => {
    const email = freshEmail();
    const { userId } = await signUp({ email, name: '   ' });
    const name = await env.PORTAL_DB.prepare('SELECT name FROM users WHERE id = ?')
      .bind(userId)
      .first('name');
    expect(name).toBe(email);
  });

  it('answers 422 with the product text for an address already taken, whatever its case', async () => {
    const email = freshEmail();
    await signUp({ email });

    for (const again of [email, email.toUpperCase(), `  ${email}  `]) {
      const response = await postJson('/signup', signupBody({ email: again }));
      expect(await failureOf(response)).toEqual({
        status: 422,
        code: 'email_taken',
        messages: ['The email has already been taken.'],
      });
    }
    const count = await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM users WHERE email_key = ?')
      .bind(email.toLowerCase())
      .first('n');
    expect(count).toBe(1);
  });

  it('leaves no tokens behind when the address is taken', async () => {
    const email = freshEmail();
    await signUp({ email });
    const before = await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM deeplink_tokens').first(
      'n',
    );
    await postJson('/signup', signupBody({ email }));
    const after = await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM deeplink_tokens').first(
      'n',
    );
    expect(after).toBe(before);
  });

  it('answers 400 with readable messages for a body not of the contract', async () => {
    const response = await postJson(
      '/signup',
      signupBody({ registration_source: 'phone', email: 'no-at' }),
    );
    const failure = await failureOf(response);
    expect(failure.status).toBe(400);
    expect(failure.code).toBe('invalid_body');
    expect(failure.messages).toHaveLength(2);
    expect(failure.messages.join('\n')).toMatch(/^registration_source: /m);
    expect(failure.messages.join('\n')).toMatch(/^email: /m);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await callPortal('/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(await failureOf(response)).toEqual({
      status: 400,
      code: 'invalid_body',
      messages: ['The request body must be a JSON object.'],
    });
  });

  it('keeps the account for the next portal instance (D1, not memory)', async () => {
    const { accessToken } = await signUp();
    // callPortal builds a new portal per call: the token must be known from storage alone.
    const response = await callPortal('/users/me/payments-settings', {
      headers: bearer(accessToken),
    });
    expect(response.status).toBe(200);
  });
});
