import type { ApiCallName } from '../../shared/api/contract';
import { logError } from '../../shared/log';
import type { Bindings } from '../env';
import type { Note } from '../http/answer';
import { type ApiRefusal, refusal } from '../http/api-json';
import type { RateDecision } from './rate-limiter';
import {
  addressSubject,
  DECLINE_RULES,
  memberOf,
  RATE_LIMITS,
  type RateLimitRule,
  type RateSubject,
  rulesFor,
} from './rate-limits';

/**
 * The limits at work: asking the counters (./rate-limiter.ts, one Durable Object per key) and
 * what the browser's API, the collector and the pictures do with their answer.
 */

/** A limiter slower than this is treated as failed: the visitor is not kept waiting on it. */
export const LIMITER_TIMEOUT_MS = 2_000;

export interface RateLimitOutcome {
  /** The refusing rule with the longest wait, or null when every rule allowed (or failed). */
  refused: { rule: string; code: RateLimitRule['code']; retryAfterSeconds: number } | null;
  /** Rules whose counter could not be reached; they were treated as allowing. */
  failed: { rule: string; detail: string }[];
}

type RuleResult =
  | { rule: RateLimitRule; decision: RateDecision }
  | { rule: RateLimitRule; error: string };

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

/**
 * Adds one hit to each rule's counter, whatever it decides: a fact to count (a decline), not a
 * request to let through. The member makes the same fact count once (a result polled again).
 * Failures are handed back, like checkRateLimits', for the caller to log.
 */
async function countHits(
  namespace: Bindings['RATE_LIMITER'],
  rules: readonly RateLimitRule[],
  subject: RateSubject,
  member: string,
  options: { timeoutMs?: number } = {},
): Promise<{ rule: string; detail: string }[]> {
  const timeoutMs = options.timeoutMs ?? LIMITER_TIMEOUT_MS;
  const failed = await Promise.all(
    rules.map(async (rule) => {
      const key = rule.key(subject);
      if (key === null) return null;
      try {
        const stub = namespace.get(namespace.idFromName(`${rule.name}:${key}`));
        const limits = { limit: rule.limit, windowMs: rule.windowMs };
        await withTimeout(Promise.resolve(stub.hit(limits, member)), timeoutMs);
        return null;
      } catch (error) {
        return { rule: rule.name, detail: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  return failed.filter((failure) => failure !== null);
}

/**
 * Hits every counter of a call at once (one Durable Object per key, so the count holds across
 * isolates and locations) and refuses when any rule refuses; the longest Retry-After wins.
 *
 * A limiter that errs or hangs fails open: the limits guard against fraud at the margin, and
 * turning every visitor away because a counter is unreachable would cost far more than a few
 * unlimited lookups. The caller logs the failure so it is seen.
 */
export async function checkRateLimits(
  namespace: Bindings['RATE_LIMITER'],
  rules: readonly RateLimitRule[],
  subject: RateSubject,
  options: { timeoutMs?: number } = {},
): Promise<RateLimitOutcome> {
  const timeoutMs = options.timeoutMs ?? LIMITER_TIMEOUT_MS;
  const applicable = rules.flatMap((rule) => {
    const key = rule.key(subject);
    return key === null ? [] : [{ rule, key: `${rule.name}:${key}` }];
  });
  const results = await Promise.all(
    applicable.map(async ({ rule, key }): Promise<RuleResult> => {
      try {
        const stub = namespace.get(namespace.idFromName(key));
        // Only plain data crosses the RPC boundary: the rule's functions stay here.
        const limits = { limit: rule.limit, windowMs: rule.windowMs };
        const asking =
          rule.counts === 'elsewhere'
            ? stub.check(limits)
            : stub.hit(limits, memberOf(rule, subject));
        const decision = await withTimeout(Promise.resolve(asking), timeoutMs);
        return { rule, decision };
      } catch (error) {
        return { rule, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const outcome: RateLimitOutcome = { refused: null, failed: [] };
  for (const result of results) {
    if ('error' in result) {
      outcome.failed.push({ rule: result.rule.name, detail: result.error });
    } else if (!result.decision.allowed) {
      const { retryAfterSeconds } = result.decision;
      if (!outcome.refused || retryAfterSeconds > outcome.refused.retryAfterSeconds) {
        outcome.refused = { rule: result.rule.name, code: result.rule.code, retryAfterSeconds };
      }
    }
  }
  return outcome;
}

/**
 * One hit on an address's counter for `rule` (the collector's vitals, the exposures' budget):
 * whether it admits the request, and the rule that refused it. A counter that cannot be reached
 * is a `rate_limiter_failed` line, and admits the request only when the caller says the limit
 * fails open.
 */
export async function addressAdmits(
  namespace: Bindings['RATE_LIMITER'],
  rule: RateLimitRule,
  connectingIp: string | undefined,
  options: { requestId: string; failOpen: boolean; timeoutMs?: number },
): Promise<{ admitted: boolean; refusedBy: string | null }> {
  const subject = { visitorId: '', ip: addressSubject(connectingIp), phone: null };
  const outcome = await checkRateLimits(namespace, [rule], subject, {
    timeoutMs: options.timeoutMs,
  });
  for (const failure of outcome.failed) {
    logError('rate_limiter_failed', {
      id: options.requestId,
      rule: failure.rule,
      detail: failure.detail,
    });
  }
  const reached = options.failOpen || outcome.failed.length === 0;
  return {
    admitted: reached && outcome.refused === null,
    refusedBy: outcome.refused?.rule ?? null,
  };
}

/** What a request is about, beyond who sends it: the number looked up, the card charged. */
export type RateTopic = Pick<RateSubject, 'phone' | 'card' | 'email'>;

/**
 * Who sends the request: the visitor, and the address (`CF-Connecting-IP`) it comes from; with
 * the bindings that hold the counters and name the limits' profile, and the request id and the
 * note on its log line a refusal is logged under. A handler reads it from its `c` (request/visit.ts
 * rateAskerOf).
 */
export interface RateAsker {
  env: Bindings;
  visitorId: string;
  connectingIp: string | undefined;
  requestId: string;
  note: Note;
}

function subjectOf(asker: RateAsker, topic: RateTopic): RateSubject {
  return { visitorId: asker.visitorId, ip: addressSubject(asker.connectingIp), ...topic };
}

/**
 * Hits the call's counters (./rate-limits.ts, as this worker applies them: rulesFor); a refusal
 * carries its Retry-After and its code: 'rate_limited', or 'payment_rate_limited' for the
 * card-testing limits, each logged under its code with the rule that refused.
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
  asker.note('rule', rule);
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
