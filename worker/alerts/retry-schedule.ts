/**
 * When a post the webhook did not take (no answer, 5xx, 429) is tried again: the next cron run
 * (every 15 minutes, wrangler.toml [triggers]), then twice as long each time up to 6 hours; 8
 * attempts in all, the last about 20 hours after the first. A chat tool down for an afternoon
 * still gets the alert, and one down for good stops being asked. A 429's Retry-After is
 * honoured within the same cap.
 */

export const MAX_ATTEMPTS = 8;

const FIRST_DELAY_MS = 15 * 60 * 1000;
const LONGEST_DELAY_MS = 6 * 60 * 60 * 1000;

/** How long to wait after the `attempts`-th attempt failed (1 after the first). */
export function retryDelayMs(attempts: number, retryAfterMs: number | null = null): number {
  const backoff = Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_DELAY_MS);
  return Math.min(Math.max(backoff, retryAfterMs ?? 0), LONGEST_DELAY_MS);
}

/** Retry-After as milliseconds: seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  if (/^\d{1,9}$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
