import type { Bindings } from '../env';
import type { RateDecision } from './rate-limiter';
import type { RateLimitRule, RateSubject } from './rate-limits';

/** A limiter slower than this is treated as failed: the visitor is not kept waiting on it. */
export const LIMITER_TIMEOUT_MS = 2_000;

export interface RateLimitOutcome {
  /** The refusing rule with the longest wait, or null when every rule allowed (or failed). */
  refused: { rule: string; retryAfterSeconds: number } | null;
  /** Rules whose counter could not be reached; they were treated as allowing. */
  failed: { rule: string; detail: string }[];
}

type RuleResult =
  | { rule: RateLimitRule; decision: RateDecision }
  | { rule: RateLimitRule; error: string };

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
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
        const member = rule.counts === 'distinct-number' ? (subject.phone ?? undefined) : undefined;
        const decision = await withTimeout(Promise.resolve(stub.hit(limits, member)), timeoutMs);
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
        outcome.refused = { rule: result.rule.name, retryAfterSeconds };
      }
    }
  }
  return outcome;
}
