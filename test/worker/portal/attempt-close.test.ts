import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_CLOSE_CALL, AttemptCloseResponse } from '../../../shared/api/attempt-close';
import { bearer, failureOf, postJson, signUp } from './portal-client';

/**
 * The embedded portal's close of an attempt (shared/api/attempt-close.ts, docs/product-api.md
 * "Closing an attempt"): closed only when nothing was charged under its key, and nothing is
 * charged under it afterwards, whichever comes first.
 */

const CHARGE = { gateway: 'stripe', payment_method_nonce: 'pm_card_visa', user_data: {} };

async function close(token: string, key: string) {
  const answer = await postJson(ATTEMPT_CLOSE_CALL.path, null, {
    ...bearer(token),
    'idempotency-key': key,
  });
  expect(answer.status).toBe(200);
  return AttemptCloseResponse.parse(await answer.json()).data.closed;
}

function charge(token: string, key: string) {
  return postJson('/users/me/subscriptions/polling/monthly_usd', CHARGE, {
    ...bearer(token),
    'idempotency-key': key,
  });
}

const chargesOf = (userId: string) =>
  env.PORTAL_DB.prepare('SELECT count(*) AS n FROM subscriptions WHERE user_id = ?')
    .bind(userId)
    .first('n');

describe('closing a charge attempt', () => {
  it('closes an attempt nothing was charged under, and refuses any charge under it after', async () => {
    const { accessToken, userId } = await signUp();
    const key = `attempt:${crypto.randomUUID()}`;
    expect(await close(accessToken, key)).toBe(true);
    expect(await close(accessToken, key)).toBe(true);
    expect(await failureOf(await charge(accessToken, key))).toMatchObject({
      status: 422,
      code: 'attempt_closed',
    });
    expect(await chargesOf(userId)).toBe(0);
    // Another attempt of the same visitor is charged as usual.
    expect((await charge(accessToken, `attempt:${crypto.randomUUID()}`)).status).toBe(200);
  });

  it('does not close an attempt that charged: the call asked again answers its charge', async () => {
    const { accessToken, userId } = await signUp();
    const key = `attempt:${crypto.randomUUID()}`;
    expect((await charge(accessToken, key)).status).toBe(200);
    expect(await close(accessToken, key)).toBe(false);
    expect((await charge(accessToken, key)).status).toBe(200);
    expect(await chargesOf(userId)).toBe(1);
  });

  it("is one user's: another user's close of the same key closes nothing of theirs", async () => {
    const first = await signUp();
    const second = await signUp();
    const key = `attempt:${crypto.randomUUID()}`;
    expect(await close(second.accessToken, key)).toBe(true);
    expect((await charge(first.accessToken, key)).status).toBe(200);
    expect(await chargesOf(first.userId)).toBe(1);
  });
});
