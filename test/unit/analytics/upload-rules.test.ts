import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QUEUE_KEY, SEND_LEASE_MS } from '../../../islands/analytics/queue';
import { FIRST_BACKOFF_MS, MAX_BACKOFF_MS, verdictOf } from '../../../islands/analytics/uploader';
import { ANALYTICS_LIMITS } from '../../../shared/analytics/limits';
import { fakeLog, names, settle, trackerUnderTest } from './fakes';

/**
 * SPEC.md §7 and §9: the analytics client uploads in batches when 30 events wait and every 30 s,
 * at most 100 a batch; a 413 halves the batch; the collector's answers decide what stays queued.
 */

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Tracks `count` clicks; the session_start of a new visitor comes first. */
function trackMany(track: (name: string) => unknown, count: number) {
  for (let i = 0; i < count; i++) track('click');
}

describe('when a batch goes', () => {
  it('sends nothing below the threshold, then everything once 30 events wait', () => {
    const { tracker, transport } = trackerUnderTest();
    trackMany(tracker.track, 28); // + session_start = 29
    expect(transport.requests).toHaveLength(0);
    tracker.track('click');
    expect(transport.requests).toHaveLength(1);
    expect(transport.pending().events).toHaveLength(ANALYTICS_LIMITS.uploadThreshold);
    expect(transport.pending().url).toMatch(/^\/e\?b=[0-9a-f]{12}$/);
  });

  it('sends what waits every 30 s, and nothing when nothing waits', async () => {
    const { tracker, transport } = trackerUnderTest();
    transport.autoAnswer = 200;
    tracker.start();
    tracker.track('load');
    await vi.advanceTimersByTimeAsync(ANALYTICS_LIMITS.periodMs - 1);
    expect(transport.requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(names(transport.requests[0]!.events)).toEqual(['session_start', 'load']);
    await vi.advanceTimersByTimeAsync(ANALYTICS_LIMITS.periodMs * 3);
    expect(transport.requests).toHaveLength(1);
    tracker.track('click');
    await vi.advanceTimersByTimeAsync(ANALYTICS_LIMITS.periodMs);
    expect(names(transport.requests[1]!.events)).toEqual(['click']);
    tracker.stop();
  });

  it('sends at most 100 events a batch, the oldest first, one request at a time', async () => {
    const { tracker, transport, limits } = trackerUnderTest();
    limits.uploadThreshold = 1000; // only the flush below sends
    trackMany(tracker.track, 249); // + session_start = 250
    const flushed = tracker.flush();
    expect(transport.requests).toHaveLength(1);
    expect(transport.pending().events).toHaveLength(100);
    expect(transport.pending().events[0]!.event_type).toBe('session_start');
    // A second flush while the first is under way starts no second request.
    void tracker.flush();
    expect(transport.requests).toHaveLength(1);
    transport.pending().answer(200);
    await settle();
    expect(transport.requests).toHaveLength(2);
    transport.pending().answer(200);
    await settle();
    expect(transport.pending().events).toHaveLength(50);
    transport.pending().answer(200);
    await flushed;
    expect(tracker.queue.size()).toBe(0);
  });

  it('keeps each batch within maxBatchBytes', async () => {
    const { tracker, transport, limits } = trackerUnderTest();
    limits.uploadThreshold = 1000;
    limits.maxBatchBytes = 5000;
    transport.autoAnswer = 200;
    for (let i = 0; i < 40; i++) tracker.track('click', { note: 'x'.repeat(300) });
    await tracker.flush();
    expect(transport.requests.length).toBeGreaterThan(2);
    for (const request of transport.requests) expect(request.bytes).toBeLessThanOrEqual(5000);
    expect(transport.requests.flatMap((request) => request.events)).toHaveLength(41);
  });
});

describe('what the collector answers', () => {
  it('200 removes exactly the events sent; those queued during the request stay', async () => {
    const { tracker, transport } = trackerUnderTest();
    trackMany(tracker.track, 29);
    const sent = transport.pending();
    tracker.track('checkout_screen_load');
    tracker.track('subs_purchase_show');
    sent.answer(200);
    await settle();
    // The two stay queued and go in the next request, which is under way.
    expect(tracker.queue.size()).toBe(2);
    expect(transport.requests).toHaveLength(2);
    expect(names(transport.pending().events)).toEqual([
      'checkout_screen_load',
      'subs_purchase_show',
    ]);
    expect(sent.events.map((event) => event.insert_id)).not.toContain(
      transport.pending().events[0]!.insert_id,
    );
  });

  it('413 halves the batch and sends it again, down to one event, which is then dropped', async () => {
    const { tracker, transport, log, limits } = trackerUnderTest();
    limits.uploadThreshold = 1000;
    trackMany(tracker.track, 7); // 8 with session_start
    const big = tracker.queue.ready(Date.now())[0]!.insert_id;
    const flushed = tracker.flush();
    const sizes: number[] = [];
    // The collector refuses anything holding the first event, takes the rest.
    for (let round = 0; round < 20 && transport.requests.length > sizes.length; round++) {
      const request = transport.pending();
      sizes.push(request.events.length);
      request.answer(request.events.some((event) => event.insert_id === big) ? 413 : 200);
      await settle();
    }
    await flushed;
    expect(sizes).toEqual([8, 4, 2, 1, 7]);
    expect(tracker.queue.size()).toBe(0);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('too large (413)'), [big]);
  });

  it('a failure keeps the events and retries after 1 s, 2 s, 4 s ... up to 60 s; success resets it', async () => {
    const { tracker, transport } = trackerUnderTest();
    trackMany(tracker.track, 29);
    const waits: number[] = [];
    for (const [round, status] of [503, 0, 500, 429, 502, 503, 503, 503].entries()) {
      const before = transport.requests.length;
      const sentAt = Date.now();
      transport.pending().answer(status);
      await settle();
      expect(tracker.queue.size()).toBe(30 + round);
      // Nothing goes before the wait is over, not even when more events reach the threshold.
      tracker.track('click');
      expect(transport.requests).toHaveLength(before);
      await vi.advanceTimersToNextTimerAsync();
      expect(transport.requests).toHaveLength(before + 1);
      waits.push(Date.now() - sentAt);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    transport.pending().answer(200);
    await settle();
    expect(tracker.queue.size()).toBe(0);
    expect(tracker.uploader?.backoff()).toBe(0);
  });

  it('400 drops that batch, logged, and goes on with the rest', async () => {
    const { tracker, transport, log, limits } = trackerUnderTest();
    limits.uploadThreshold = 1000;
    limits.batchSize = 5;
    trackMany(tracker.track, 9); // 10 events: two batches
    const flushed = tracker.flush();
    transport.pending().answer(400);
    await settle();
    transport.pending().answer(200);
    await flushed;
    expect(transport.requests).toHaveLength(2);
    expect(tracker.queue.size()).toBe(0);
    expect(log.warn).toHaveBeenCalledWith(
      expect.stringContaining('5 events dropped: refused by the collector'),
      expect.any(Array),
    );
  });

  it.each([
    [200, 'accepted'],
    [202, 'accepted'],
    [413, 'too_large'],
    [400, 'refused'],
    [403, 'refused'],
    [415, 'refused'],
    [0, 'retry'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
  ])('status %i reads as %s', (status, verdict) => {
    expect(verdictOf(status)).toBe(verdict);
  });

  it('backs off from FIRST_BACKOFF_MS to at most MAX_BACKOFF_MS', () => {
    expect([FIRST_BACKOFF_MS, MAX_BACKOFF_MS]).toEqual([1000, 60_000]);
  });
});

describe('analytics switched off (no collector)', () => {
  it("drops every event with 'No request sent' and stores nothing", async () => {
    const { tracker, transport, storage, log, heard } = trackerUnderTest({ collector: null });
    tracker.start();
    trackMany(tracker.track, 40);
    await tracker.flush();
    expect(tracker.sendByBeacon()).toBe(0);
    await vi.advanceTimersByTimeAsync(ANALYTICS_LIMITS.periodMs * 2);
    expect(transport.post).not.toHaveBeenCalled();
    expect(transport.beacon).not.toHaveBeenCalled();
    expect(storage.items.has(QUEUE_KEY)).toBe(false);
    expect(log.info).toHaveBeenCalledWith(expect.stringContaining('No request sent'));
    // Said once per page, not once per event.
    expect(log.info).toHaveBeenCalledTimes(1);
    // Listeners (the pixels) still hear them.
    expect(heard).toHaveLength(41);
  });
});

describe('two tabs of one visitor share the stored queue', () => {
  it('a batch one tab is sending is not sent by the other, unless that request is lost', async () => {
    const first = trackerUnderTest();
    const second = trackerUnderTest({
      storage: first.storage,
      transport: first.transport,
      log: fakeLog(),
    });
    first.limits.uploadThreshold = 1000;
    first.tracker.track('load');
    void first.tracker.flush();
    expect(first.transport.requests).toHaveLength(1);
    await second.tracker.flush();
    expect(first.transport.requests).toHaveLength(1);
    // The first tab was closed mid-request: after the hold, the second tab sends the events.
    vi.setSystemTime(Date.now() + SEND_LEASE_MS + 1);
    void second.tracker.flush();
    expect(first.transport.requests).toHaveLength(2);
    expect(names(first.transport.pending().events)).toEqual(['session_start', 'load']);
  });
});
