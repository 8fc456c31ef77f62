import type { MiddlewareHandler } from 'hono';
import { sha256Hex } from '../shared/hex';
import type { PortalBindings } from './env';
import { PortalError } from './portal-error';
import { findUserIdByAccessTokenHash } from './store/access-tokens';

/** Routes behind `requireBearer` read the signed-in user's id from `c.var.userId`. */
export type SignedInEnv = { Bindings: PortalBindings; Variables: { userId: string } };

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * SPEC.md §6: subscription, payment-settings and deeplink calls carry the access token from
 * sign-up as a bearer token. Without a known one the call answers 401 'Unauthenticated.', the
 * product API's text.
 */
export function requireBearer(): MiddlewareHandler<SignedInEnv> {
  return async function requireBearerMiddleware(c, next) {
    const token = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
    const userId = token
      ? await findUserIdByAccessTokenHash(c.env.PORTAL_DB, await sha256Hex(token))
      : null;
    if (!userId) throw new PortalError(401, 'unauthenticated', 'Unauthenticated.');
    c.set('userId', userId);
    await next();
  };
}
