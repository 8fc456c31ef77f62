import type { Context } from 'hono';
import type { ApiCallName } from '../../shared/api/contract';
import { logError } from '../../shared/log';
import type { ApiEnv } from '../env';
import { type ApiRefusal, refusal } from './api-error';
import { addressSubject } from './client-address';
import { checkRateLimits, countHits } from './rate-limit-check';
import { rulesFor } from './rate-limit-profile';
import { DECLINE_RULES, RATE_LIMITS, type RateLimitRule, type RateSubject } from './rate-limits';

/** What a request is about, beyond who sends it: the number looked up, the card charged. */
export type RateTopic = Pick<RateSubject, 'phone' | 'card'>;

/** Who sends the request: the visitor, and the address (`CF-Connecting-IP`) it comes from. */
function subjectOf(
  visitorId: string,
  connectingIp: string | undefined,
  topic: RateTopic,
): RateSubject {
  return { visitorId, ip: addressSubject(connectingIp), ...topic };
}

/**
 * Hits the call's counters (worker/api/rate-limits.ts, as this worker applies them:
 * rate-limit-profile.ts); a refusal carries its Retry-After and
 * its code: 'rate_limited', or 'payment_rate_limited' for the card-testing limits, each logged
 * under its code with the rule that refused.
 */
export async function rateLimitRefusal<E extends ApiEnv>(
  c: Context<E>,
  call: ApiCallName,
  topic: RateTopic,
): Promise<ApiRefusal | null> {
  const rules = RATE_LIMITS[call];
  return rules ? limitRefusal(c, call, rules, topic) : null;
}

/** rateLimitRefusal for a call of the worker's own (`call` names it in the log lines). */
export async function limitRefusal<E extends ApiEnv>(
  c: Context<E>,
  call: string,
  rules: readonly RateLimitRule[],
  topic: RateTopic,
): Promise<ApiRefusal | null> {
  const outcome = await checkRateLimits(
    c.env.RATE_LIMITER,
    rulesFor(c.env, rules),
    subjectOf(c.get('visitorId'), c.req.header('cf-connecting-ip'), topic),
  );
  const id = c.get('requestId');
  for (const failure of outcome.failed) {
    logError('rate_limiter_failed', { id, call, rule: failure.rule, detail: failure.detail });
  }
  if (!outcome.refused) return null;
  const { rule, code, retryAfterSeconds } = outcome.refused;
  logError(code, { id, call, rule, retry_after: retryAfterSeconds });
  c.get('logFields').rule = rule;
  return { ...refusal(code), retryAfterSeconds };
}

/**
 * Counts a decline the product API answered against the visitor, the address and the card that
 * made it (the card-testing limits). `declineId` names the decline (its polling id, or the
 * attempt's key), so reading the same declined result again counts it once.
 */
export async function recordDecline<E extends ApiEnv>(
  c: Context<E>,
  declineId: string,
  card: string | null,
): Promise<void> {
  const failed = await countHits(
    c.env.RATE_LIMITER,
    rulesFor(c.env, DECLINE_RULES),
    subjectOf(c.get('visitorId'), c.req.header('cf-connecting-ip'), { phone: null, card }),
    declineId,
  );
  for (const failure of failed) {
    logError('rate_limiter_failed', {
      id: c.get('requestId'),
      rule: failure.rule,
      detail: failure.detail,
    });
  }
}
