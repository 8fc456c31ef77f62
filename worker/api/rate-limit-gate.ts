import type { Context } from 'hono';
import type { ApiCallName } from '../../shared/api/contract';
import type { AppEnv } from '../env';
import { logError } from '../log';
import { type ApiRefusal, refusal } from './api-error';
import { addressSubject } from './client-address';
import { checkRateLimits } from './rate-limit-check';
import { RATE_LIMITS } from './rate-limits';

/** Hits the call's counters (worker/api/rate-limits.ts); a refusal carries its Retry-After. */
export async function rateLimitRefusal(
  c: Context<AppEnv>,
  call: ApiCallName,
  phone: string | null,
): Promise<ApiRefusal | null> {
  const rules = RATE_LIMITS[call];
  if (!rules) return null;
  const outcome = await checkRateLimits(c.env.RATE_LIMITER, rules, {
    visitorId: c.get('visitorId'),
    ip: addressSubject(c.req.header('cf-connecting-ip')),
    phone,
  });
  const id = c.get('requestId');
  for (const failure of outcome.failed) {
    logError('rate_limiter_failed', { id, call, rule: failure.rule, detail: failure.detail });
  }
  if (!outcome.refused) return null;
  const { rule, retryAfterSeconds } = outcome.refused;
  logError('rate_limited', { id, call, rule, retry_after: retryAfterSeconds });
  c.get('logFields').rule = rule;
  return { ...refusal('rate_limited'), retryAfterSeconds };
}
