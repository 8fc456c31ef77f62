import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { logError } from '../../shared/log';
import { addressSubject } from '../api/client-address';
import { checkRateLimits } from '../api/rate-limit-check';
import type { RateLimitRule } from '../api/rate-limits';
import type { AppEnv } from '../env';
import { VISITOR_COOKIE } from '../middleware/visitor';

const MINUTE = 60_000;

/**
 * How many batches `POST /e` takes a minute (the collector under abuse). A tracker
 * sends one batch per 30 events or 30 s, plus a beacon when a page is left and the next page's
 * catch-up: a visitor racing a screen every 5 s sends about 25 a minute. Refused batches are not
 * counted, and the tracker keeps them, so a client that keeps trying gets in, later.
 */
export const batchesPerVisitor: RateLimitRule = {
  name: 'collector_batches_per_visitor',
  limit: 60,
  windowMs: MINUTE,
  key: (s) => s.visitorId,
  counts: 'each',
  code: 'rate_limited',
};

export const batchesPerIp: RateLimitRule = {
  name: 'collector_batches_per_ip',
  // Many real visitors share an address (CGNAT, offices): ten racing visitors' worth, ten
  // batches a second from one address at most.
  limit: 600,
  windowMs: MINUTE,
  key: (s) => s.ip,
  counts: 'each',
  code: 'rate_limited',
};

const COLLECTOR_LIMITS: readonly RateLimitRule[] = [batchesPerVisitor, batchesPerIp];

/**
 * The seconds to wait when a batch from this visitor (the uuid cookie; a request without one is
 * counted by its address alone) or address is over its limit, else null. A counter that cannot
 * be reached lets the batch through and is logged: losing analytics to a broken limiter would
 * cost more than a flood's extra rows.
 */
export async function intakeRetryAfter(
  c: Context<AppEnv>,
  rules: readonly RateLimitRule[] = COLLECTOR_LIMITS,
): Promise<number | null> {
  const visitorId = getCookie(c, VISITOR_COOKIE);
  const applicable = visitorId
    ? rules
    : rules.filter((rule) => rule.name !== batchesPerVisitor.name);
  const outcome = await checkRateLimits(c.env.RATE_LIMITER, applicable, {
    visitorId: visitorId ?? '',
    ip: addressSubject(c.req.header('cf-connecting-ip')),
    phone: null,
  });
  for (const failure of outcome.failed) {
    logError('rate_limiter_failed', {
      id: c.get('requestId'),
      rule: failure.rule,
      detail: failure.detail,
    });
  }
  if (!outcome.refused) return null;
  c.get('logFields').rule = outcome.refused.rule;
  return outcome.refused.retryAfterSeconds;
}
