import type { ApiCallName } from '../../shared/api/contract';
import { type LogFields, logError } from '../../shared/log';
import type { Bindings } from '../env';
import { type ApiRefusal, refusal } from '../http/api-error';
import { addressSubject } from './client-address';
import { checkRateLimits, countHits } from './rate-limit-check';
import { rulesFor } from './rate-limit-profile';
import { DECLINE_RULES, RATE_LIMITS, type RateLimitRule, type RateSubject } from './rate-limits';

/** What a request is about, beyond who sends it: the number looked up, the card charged. */
export type RateTopic = Pick<RateSubject, 'phone' | 'card'>;

/**
 * Who sends the request: the visitor, and the address (`CF-Connecting-IP`) it comes from; with
 * the bindings that hold the counters and name the limits' profile, and the request id and log
 * fields a refusal is logged under. A handler reads it from its `c` (middleware/visit.ts
 * rateAskerOf).
 */
export interface RateAsker {
  env: Bindings;
  visitorId: string;
  connectingIp: string | undefined;
  requestId: string;
  fields: LogFields;
}

function subjectOf(asker: RateAsker, topic: RateTopic): RateSubject {
  return { visitorId: asker.visitorId, ip: addressSubject(asker.connectingIp), ...topic };
}

/**
 * Hits the call's counters (worker/rate-limits/rate-limits.ts, as this worker applies them:
 * rate-limit-profile.ts); a refusal carries its Retry-After and
 * its code: 'rate_limited', or 'payment_rate_limited' for the card-testing limits, each logged
 * under its code with the rule that refused.
 */
export async function rateLimitRefusal(
  asker: RateAsker,
  call: ApiCallName,
  topic: RateTopic,
): Promise<ApiRefusal | null> {
  const rules = RATE_LIMITS[call];
  return rules ? limitRefusal(asker, call, rules, topic) : null;
}

/** rateLimitRefusal for a call of the worker's own (`call` names it in the log lines). */
export async function limitRefusal(
  asker: RateAsker,
  call: string,
  rules: readonly RateLimitRule[],
  topic: RateTopic,
): Promise<ApiRefusal | null> {
  const outcome = await checkRateLimits(
    asker.env.RATE_LIMITER,
    rulesFor(asker.env, rules),
    subjectOf(asker, topic),
  );
  const id = asker.requestId;
  for (const failure of outcome.failed) {
    logError('rate_limiter_failed', { id, call, rule: failure.rule, detail: failure.detail });
  }
  if (!outcome.refused) return null;
  const { rule, code, retryAfterSeconds } = outcome.refused;
  logError(code, { id, call, rule, retry_after: retryAfterSeconds });
  asker.fields.rule = rule;
  return { ...refusal(code), retryAfterSeconds };
}

/**
 * Counts a decline the product API answered against the visitor, the address and the card that
 * made it (the card-testing limits). `declineId` names the decline (its polling id, or the
 * attempt's key), so reading the same declined result again counts it once.
 */
export async function recordDecline(
  asker: RateAsker,
  declineId: string,
  card: string | null,
): Promise<void> {
  const failed = await countHits(
    asker.env.RATE_LIMITER,
    rulesFor(asker.env, DECLINE_RULES),
    subjectOf(asker, { phone: null, card }),
    declineId,
  );
  for (const failure of failed) {
    logError('rate_limiter_failed', {
      id: asker.requestId,
      rule: failure.rule,
      detail: failure.detail,
    });
  }
}
