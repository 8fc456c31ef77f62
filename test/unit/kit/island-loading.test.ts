import { describe, expect, it, vi } from 'vitest';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadError,
  loadChunk,
  type Schedule,
} from '../../../islands/island-loading';

/** A clock the test moves by hand: timers run only when `advance` passes their time. */
function manualClock() {
  let now = 0;
  const timers = new Set<{ at: number; run: () => void }>();
  const schedule: Schedule = (run, ms) => {
    const timer = { at: now + ms, run };
    timers.add(timer);
    return () => timers.delete(timer);
  };
  return {
    schedule,
    pending: () => timers.size,
    async advance(ms: number) {
      now += ms;
      for (const timer of [...timers]) {
        if (timer.at > now) continue;
        timers.delete(timer);
        timer.run();
      }
      await settle();
    },
  };
}

/** Lets every promise already resolved run its callbacks. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A load whose attempts are answered by the test: each call is one attempt. */
function loads<T>() {
  const attempts: { resolve: (value: T) => void; reject: (error: unknown) => void }[] = [];
  const load = () =>
    new Promise<T>((resolve, reject) => {
      attempts.push({ resolve, reject });
    });
  return { load, attempts };
}

/** What a promise has come to so far. */
function outcome<T>(promise: Promise<T>) {
  const seen: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(seen, { value, settled: true }),
    (error: unknown) => Object.assign(seen, { error, settled: true }),
  );
  return seen;
}

const TIMEOUT = 1000;

/** Starts loading chunk 'Pay' on a manual clock; the test answers each attempt. */
async function started() {
  const clock = manualClock();
  const { load, attempts } = loads<string>();
  const loaded = outcome(
    loadChunk(load, { chunk: 'Pay', timeoutMs: TIMEOUT, schedule: clock.schedule }),
  );
  await settle();
  return { clock, attempts, loaded };
}

describe('loading an island’s chunk (SPEC.md §8, §9)', () => {
  it('waits 120 s for an attempt unless told otherwise (SPEC.md §9)', async () => {
    vi.useFakeTimers();
    try {
      const { load, attempts } = loads<string>();
      void loadChunk(load, { chunk: 'Pay' }).catch(() => {});
      await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
      expect(attempts).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempts).toHaveLength(2);
      expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('resolves what the first attempt loads, and leaves no timer behind', async () => {
    const { clock, attempts, loaded } = await started();
    attempts[0]!.resolve('module');
    await settle();
    expect(loaded).toEqual({ value: 'module', settled: true });
    expect(attempts).toHaveLength(1);
    expect(clock.pending()).toBe(0);
  });

  it('tries a refused chunk once more, and resolves what the second attempt loads', async () => {
    const { attempts, loaded } = await started();
    attempts[0]!.reject(new TypeError('Failed to fetch dynamically imported module'));
    await settle();
    expect(attempts).toHaveLength(2);
    attempts[1]!.resolve('module');
    await settle();
    expect(loaded).toEqual({ value: 'module', settled: true });
  });

  it("names a chunk refused twice 'missing', with the second refusal as its cause", async () => {
    const { clock, attempts, loaded } = await started();
    attempts[0]!.reject(new TypeError('first'));
    await settle();
    const second = new TypeError('second');
    attempts[1]!.reject(second);
    await settle();
    expect(attempts).toHaveLength(2);
    expect(loaded.error).toBeInstanceOf(ChunkLoadError);
    expect(loaded.error).toMatchObject({
      chunk: 'Pay',
      type: 'missing',
      message: 'Loading chunk Pay failed. (missing)',
      cause: second,
    });
    expect(clock.pending()).toBe(0);
  });

  it('asks again once the first attempt has stalled for the whole time-out, not before', async () => {
    const { clock, attempts, loaded } = await started();
    await clock.advance(TIMEOUT - 1);
    expect(attempts).toHaveLength(1);
    await clock.advance(1);
    expect(attempts).toHaveLength(2);
    // The first attempt's late answer no longer counts: the second's does.
    attempts[0]!.resolve('late');
    await settle();
    expect(loaded.settled).toBe(false);
    attempts[1]!.resolve('module');
    await settle();
    expect(loaded).toEqual({ value: 'module', settled: true });
  });

  it("names a chunk that stalls twice 'timeout'", async () => {
    const { clock, attempts, loaded } = await started();
    await clock.advance(TIMEOUT);
    await clock.advance(TIMEOUT - 1);
    expect(loaded.settled).toBe(false);
    await clock.advance(1);
    expect(attempts).toHaveLength(2);
    expect(loaded.error).toMatchObject({
      name: 'ChunkLoadError',
      chunk: 'Pay',
      type: 'timeout',
      message: 'Loading chunk Pay failed. (timeout)',
    });
  });

  it('names the failure after the last attempt: a stall, then a refusal, is missing', async () => {
    const { clock, attempts, loaded } = await started();
    await clock.advance(TIMEOUT);
    attempts[1]!.reject(new TypeError('refused'));
    await settle();
    expect(loaded.error).toMatchObject({ type: 'missing' });
  });

  it('counts a load that throws at once as refused', async () => {
    const clock = manualClock();
    let calls = 0;
    const loaded = outcome(
      loadChunk(
        () => {
          calls += 1;
          throw new Error('no such module');
        },
        { chunk: 'Pay', timeoutMs: TIMEOUT, schedule: clock.schedule },
      ),
    );
    await settle();
    expect(calls).toBe(2);
    expect(loaded.error).toMatchObject({ type: 'missing' });
  });
});
