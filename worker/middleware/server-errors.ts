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
 * bot, a prefetch, the console (a marketer, not a visitor) and a setting the deployment lacks
 * (a `*_not_configured` code: the data bench's worker, without a geocoding key, had every
 * visitor's map answered 503) are left out. Each visitor counts
 * once per experiment however many 5xx they meet.
 */
export function serverErrors(options: { now?: () => number } = {}): MiddlewareHandler<RootEnv> {
  const now = options.now ?? Date.now;
  return async function serverErrorsMiddleware(c, next) {
    await next();
    if (c.res.status < 500 || c.req.path.startsWith('/console')) return;
    // A setting this deployment lacks (`geocoding_not_configured`, ...) answers every visitor
    // alike in every arm; its code is for the operator's alert (docs/operate.md), no variant's.
    const code = c.get('logFields').error;
    if (typeof code === 'string' && code.endsWith('_not_configured')) return;
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
