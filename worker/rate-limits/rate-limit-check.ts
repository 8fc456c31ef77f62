import type { Bindings } from '../env';
import type { RateDecision } from './rate-limiter';
import { memberOf, type RateLimitRule, type RateSubject } from './rate-limits';

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
export async function countHits(
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
