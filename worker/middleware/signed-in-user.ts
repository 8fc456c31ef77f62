import type { MiddlewareHandler } from 'hono';
import type { RootEnv } from '../request/envs';
import { writeSignedInCookies } from '../request/signed-in-user';

/**
 * Writes the signed cookies of a visitor this request signed in (worker/request/signed-in-user.ts)
 * once the answer is made: signing is asynchronous, and a session is set in the middle of a
 * handler.
 */
export function signedInUserCookies(): MiddlewareHandler<RootEnv> {
  return async function signedInUserCookiesMiddleware(c, next) {
    await next();
    // Most requests sign no one in or out: nothing to write.
    if (c.get('signedInUserId') === undefined && c.get('signedInToken') === undefined) return;
    await writeSignedInCookies(c);
  };
}
