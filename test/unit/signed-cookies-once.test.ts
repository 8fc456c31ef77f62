import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../worker/env';
import { signedCookiesOf } from '../../worker/request/cookies';
import type { RootEnv } from '../../worker/request/envs';
import { signCookie } from '../../worker/signing';

/**
 * The signed cookies a handler hands down (worker/request/cookies.ts signedCookiesOf):
 * each cookie is verified once for the request, however many readers ask for it, as a purchase's
 * guard, memo and record each ask for the signed-in user.
 */

const KEY = 'a-test-cookie-signing-key-of-some-length';
const VISITOR = '3f1c9a52-8d4e-4b7a-9c61-2e5f0a7b8c9d';

afterEach(() => vi.restoreAllMocks());

/** An app whose handler reads `gf_user` four times through one SignedCookies. */
function appReading(times: number) {
  const app = new Hono<RootEnv>();
  app.get('/', async (c) => {
    c.set('visitorId', VISITOR);
    const cookies = signedCookiesOf(c);
    const seen = [];
    for (let n = 0; n < times; n += 1) seen.push(await cookies.read('gf_user'));
    return c.json(seen);
  });
  return app;
}

describe('signedCookiesOf', () => {
  it('verifies a cookie once for four readers, and each gets its value', async () => {
    const cookie = await signCookie(KEY, 'gf_user', VISITOR, 'user-42');
    const verify = vi.spyOn(crypto.subtle, 'verify');
    const response = await appReading(4).request(
      '/',
      { headers: { cookie: `gf_user=${cookie}` } },
      { COOKIE_SIGNING_KEY: KEY } as Bindings,
    );
    expect(await response.json()).toEqual(
      Array.from({ length: 4 }, () => ({ state: 'valid', value: 'user-42' })),
    );
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('a cookie signed for someone else is refused for every reader, verified once', async () => {
    const cookie = await signCookie(KEY, 'gf_user', 'another-visitor', 'user-42');
    const verify = vi.spyOn(crypto.subtle, 'verify');
    const response = await appReading(3).request(
      '/',
      { headers: { cookie: `gf_user=${cookie}` } },
      { COOKIE_SIGNING_KEY: KEY } as Bindings,
    );
    const seen = (await response.json()) as { state: string }[];
    expect(seen.map((reading) => reading.state)).toEqual(['invalid', 'invalid', 'invalid']);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
