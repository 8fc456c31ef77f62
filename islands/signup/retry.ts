import { sleep } from '../../shared/backoff';

/** Waits `ms` milliseconds; injected so tests run on fake or instant timers. */
export type Sleep = (ms: number) => Promise<void>;

export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** Pause before each retry. */
  delayMs: number;
  sleep?: Sleep;
}

/**
 * Runs `attempt` until it resolves, at most 1 + `retries` times with `delayMs` between tries;
 * rejects with the last failure when none succeeded.
 */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  const wait = policy.sleep ?? sleep;
  for (let tried = 0; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tried >= policy.retries) throw error;
      await wait(policy.delayMs);
    }
  }
}
