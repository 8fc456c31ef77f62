import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import {
  ACK_COOKIE,
  ACK_MAX_AGE_SECONDS,
  BATCH_PARAM,
  isBatchId,
  withAcknowledged,
} from '../../shared/analytics/acknowledgement';
import type { CollectorEnv } from '../request/envs';

/**
 * Answers the tracker will never need to send again: taken (200, duplicates and a preview's
 * included) or refused for good as invalid (400). Not a limit or an outage (429, 503), whose
 * batch must come again; not a 413, whose events the tracker can still send in smaller batches.
 */
function isSettled(status: number): boolean {
  return status === 200 || status === 400;
}

/**
 * Acknowledges `POST /e?b=<batch id>` in the `gf_ack` cookie of its answer
 * (shared/analytics/acknowledgement.ts), for the tracker of a later page when nobody heard the
 * answer (a beacon). It runs after the same-origin check: another site's page never gets a
 * batch acknowledged in a visitor's browser. Nothing is stored on the server; the cookie holds
 * the visitor's own random ids, re-checked and capped on each answer, so no request can name
 * another browser's batch, and no flood makes the cookie grow.
 */
export function acknowledgeBatch(): MiddlewareHandler<CollectorEnv> {
  return async function acknowledgeBatchMiddleware(c, next) {
    await next();
    const batch = c.req.query(BATCH_PARAM);
    if (!isBatchId(batch) || !isSettled(c.res.status)) return;
    setCookie(c, ACK_COOKIE, withAcknowledged(getCookie(c, ACK_COOKIE), batch), {
      maxAge: ACK_MAX_AGE_SECONDS,
      path: '/',
      secure: true,
      sameSite: 'Strict',
    });
  };
}
