import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryAfterMs, retryDelayMs } from '../../../worker/alerts/retry-schedule';

const MINUTE = 60_000;

describe('the retry schedule', () => {
  it('waits for the next run, then twice as long each time, at most 6 hours', () => {
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1) / MINUTE);
    expect(delays).toEqual([15, 30, 60, 120, 240, 360, 360]);
  });

  it('honours a longer Retry-After, within the same cap', () => {
    expect(retryDelayMs(1, 45 * MINUTE)).toBe(45 * MINUTE);
    expect(retryDelayMs(1, 60 * MINUTE * 24)).toBe(360 * MINUTE);
    expect(retryDelayMs(3, MINUTE)).toBe(60 * MINUTE);
  });

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-06-02T08:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 02 Jun 2026 08:10:00 GMT', now)).toBe(10 * MINUTE);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
