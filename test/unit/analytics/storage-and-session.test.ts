import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventQueue, QUEUE_KEY } from '../../../islands/analytics/queue';
import { advanceSession, SESSION_KEY } from '../../../islands/analytics/session';
import { createTracker } from '../../../islands/analytics/tracker-core';
import { ANALYTICS_LIMITS } from '../../../shared/analytics/limits';
import { fakeLog, memoryStorage, names, PAGE, trackerUnderTest } from './fakes';

/** SPEC.md §9: session timeout 30 minutes, saved max count 1000; the queue outlives the page. */

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;

describe('sessions', () => {
  it('starts one with the first event: session_start first, the session id its start time', () => {
    const { tracker, heard } = trackerUnderTest();
    const start = Date.now();
    tracker.track('load');
    expect(names(heard)).toEqual(['session_start', 'load']);
    expect(heard.map((event) => event.session_id)).toEqual([start, start]);
    expect(heard[0]!.event_properties.screen_name).toBe('one_pager');
  });

  it('keeps it while the visitor is active, even over 30 minutes in all', () => {
    const { tracker, heard } = trackerUnderTest();
    const start = Date.now();
    for (let i = 0; i < 4; i++) {
      tracker.track('click');
      vi.advanceTimersByTime(20 * MINUTE);
    }
    expect(names(heard).filter((name) => name === 'session_start')).toHaveLength(1);
    expect(new Set(heard.map((event) => event.session_id))).toEqual(new Set([start]));
  });

  it('starts a new one after 30 minutes idle', () => {
    const { tracker, heard } = trackerUnderTest();
    tracker.track('load');
    vi.advanceTimersByTime(30 * MINUTE);
    tracker.track('click');
    expect(names(heard)).toEqual(['session_start', 'load', 'click']);
    vi.advanceTimersByTime(30 * MINUTE + 1);
    const resumed = Date.now();
    tracker.track('click');
    expect(names(heard).slice(3)).toEqual(['session_start', 'click']);
    expect(heard.at(-1)!.session_id).toBe(resumed);
  });

  it('is shared by the next page (stored), which does not start another', () => {
    const storage = memoryStorage();
    const first = trackerUnderTest({ storage });
    first.tracker.track('load');
    vi.advanceTimersByTime(5 * MINUTE);
    const next = trackerUnderTest({ storage });
    next.tracker.track('load');
    expect(names(next.heard)).toEqual(['load']);
    expect(next.heard[0]!.session_id).toBe(first.heard[0]!.session_id);
    expect(storage.items.has(SESSION_KEY)).toBe(true);
  });

  it('puts an event older than the latest (handed over from an earlier page) in the current one', () => {
    const session = { id: 1000, last: 5000 };
    expect(advanceSession(session, 4000, 30 * MINUTE)).toEqual({ session, started: false });
  });
});

describe('the stored queue', () => {
  it('survives the page: the next page’s tracker sends what this one queued', async () => {
    const storage = memoryStorage();
    const first = trackerUnderTest({ storage });
    first.tracker.track('load');
    first.tracker.track('click');
    const next = trackerUnderTest({ storage });
    next.transport.autoAnswer = 200;
    await next.tracker.flush();
    expect(names(next.transport.requests[0]!.events)).toEqual(['session_start', 'load', 'click']);
    expect(next.tracker.queue.size()).toBe(0);
  });

  it('holds at most 1000: the oldest give way, counted and logged', () => {
    const { tracker, log, limits } = trackerUnderTest();
    limits.uploadThreshold = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 1004; i++) tracker.track('click', { n: i });
    expect(tracker.queue.size()).toBe(ANALYTICS_LIMITS.savedMaxCount);
    // session_start and clicks 0-3 gave way.
    expect(tracker.queue.dropped()).toBe(5);
    expect(tracker.queue.ready(Date.now())[0]!.event_properties.n).toBe(4);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('over 1000 saved'));
  });

  it('reads an unreadable stored value as empty instead of failing', () => {
    const storage = memoryStorage();
    storage.items.set(QUEUE_KEY, '{not json');
    const queue = createEventQueue({ storage, maxCount: 10, log: fakeLog() });
    expect(queue.size()).toBe(0);
    storage.items.set(QUEUE_KEY, JSON.stringify({ entries: [{ event: { nope: 1 } }], dropped: 2 }));
    expect(queue.size()).toBe(0);
    expect(queue.dropped()).toBe(2);
  });

  it('keeps working in memory when storage throws (private mode, quota), and says so once', async () => {
    const storage = memoryStorage();
    storage.broken = true;
    const log = fakeLog();
    const { tracker, transport } = trackerUnderTest({ storage, log });
    tracker.track('load');
    tracker.track('click');
    expect(tracker.queue.size()).toBe(3);
    transport.autoAnswer = 200;
    await tracker.flush();
    expect(names(transport.requests[0]!.events)).toEqual(['session_start', 'load', 'click']);
    expect(tracker.queue.size()).toBe(0);
    // One warning per stored value (queue and session), not one per event.
    expect(log.warn.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('never throws into the page, whatever storage does', () => {
    const storage = memoryStorage();
    const tracker = createTracker({
      origin: PAGE,
      collector: '/e',
      storage: {
        getItem: storage.getItem,
        setItem: () => {
          throw new Error('boom');
        },
        removeItem: storage.removeItem,
      },
      transport: { post: async () => 200, beacon: () => true, acknowledged: () => [] },
      timers: { setTimeout, clearTimeout: () => {} },
      now: Date.now,
      randomId: () => crypto.randomUUID(),
      batchId: () => '0123456789ab',
      userId: () => null,
      notify: () => {},
      log: fakeLog(),
    });
    expect(() => tracker.track('load')).not.toThrow();
  });
});
