import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { describeError, logError } from '../../shared/log';
import { knownBotReason } from '../experiments/assignment/bots';
import { experimentStores } from '../experiments/store/experiment-stores';
import { recordErrors } from '../experiments/store/record-outcomes';
import { afterAnswer } from '../request/after-answer';
import { VISITOR_COOKIE, visitorIdOf } from '../request/cookies';
import type { RootEnv } from '../request/envs';

/**
 * Records, from the worker itself, each visitor it answered with a 5xx, as a `server_error` in
 * every experiment they were exposed to before it (worker/experiments/store/error-statements.ts):
 * what a guarded ramp's `server_errors` guardrail watches (shared/ramps.ts), so a variant that
 * breaks a page or a call is rolled back, which no browser can claim or hide. After the answer,
 * one request to the visitor's shard, and only on a 5xx to a visitor with a uuid cookie: a known
 * bot, a prefetch and the console (a marketer, not a visitor) are left out. Each visitor counts
 * once per experiment however many 5xx they meet.
 */
export function serverErrors(options: { now?: () => number } = {}): MiddlewareHandler<RootEnv> {
  const now = options.now ?? Date.now;
  return async function serverErrorsMiddleware(c, next) {
    await next();
    if (c.res.status < 500 || c.req.path.startsWith('/console')) return;
    const visitorId = visitorIdOf(getCookie(c, VISITOR_COOKIE));
    if (visitorId === null) return;
    if (c.req.header('sec-purpose')?.includes('prefetch')) return;
    if (knownBotReason(c.req.header('user-agent'), c.req.raw.cf) !== null) return;
    const id = c.get('requestId');
    const at = now();
    afterAnswer(
      c,
      recordErrors(experimentStores(c.env), [{ visitorId, kind: 'server_error', at }]).catch(
        (error: unknown) =>
          logError('server_error_not_recorded', { id, detail: describeError(error) }),
      ),
    );
  };
}
