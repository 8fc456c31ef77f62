import { describe, expect, it, vi } from 'vitest';
import { withRetries } from '../../../islands/signup/retry';

/** A sleep that records each pause and returns at once. */
function recordingSleep() {
  const pauses: number[] = [];
  return { pauses, sleep: async (ms: number) => void pauses.push(ms) };
}

describe('withRetries', () => {
  it('answers at once when the first attempt succeeds', async () => {
    const { pauses, sleep } = recordingSleep();
    const attempt = vi.fn(async () => 'ok');
    expect(await withRetries(attempt, { retries: 2, delayMs: 1000, sleep })).toBe('ok');
    expect(attempt).toHaveBeenCalledOnce();
    expect(pauses).toEqual([]);
  });

  it('tries again after each failure, pausing between tries', async () => {
    const { pauses, sleep } = recordingSleep();
    const attempt = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('1'))
      .mockRejectedValueOnce(new Error('2'))
      .mockResolvedValue('third time');
    expect(await withRetries(attempt, { retries: 2, delayMs: 1000, sleep })).toBe('third time');
    expect(attempt).toHaveBeenCalledTimes(3);
    expect(pauses).toEqual([1000, 1000]);
  });

  it('gives up after 1 + retries attempts with the last failure', async () => {
    const { pauses, sleep } = recordingSleep();
    let n = 0;
    const attempt = vi.fn(async () => {
      n += 1;
      throw new Error(`failure ${n}`);
    });
    await expect(withRetries(attempt, { retries: 2, delayMs: 1000, sleep })).rejects.toThrow(
      'failure 3',
    );
    expect(attempt).toHaveBeenCalledTimes(3);
    expect(pauses).toEqual([1000, 1000]);
  });

  it('waits on the real clock by default', async () => {
    vi.useFakeTimers();
    try {
      const attempt = vi.fn<() => Promise<string>>().mockRejectedValueOnce(new Error('x'));
      attempt.mockResolvedValue('ok');
      const result = withRetries(attempt, { retries: 2, delayMs: 1000 });
      await vi.advanceTimersByTimeAsync(999);
      expect(attempt).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await result).toBe('ok');
      expect(attempt).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
