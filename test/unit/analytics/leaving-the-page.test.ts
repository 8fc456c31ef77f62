import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { packBatches } from '../../../islands/analytics/batches';
import { ACK_WAIT_MS, SEND_LEASE_MS } from '../../../islands/analytics/queue';
import { MAX_HAND_OFFS } from '../../../islands/analytics/uploader';
import { isBatchId } from '../../../shared/analytics/acknowledgement';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import { ANALYTICS_LIMITS } from '../../../shared/analytics/limits';
import { batchOf, fakeLog, names, settle, trackerUnderTest } from './fakes';

/**
 * Every screen is a new document: what waits when the page is hidden or left goes by beacon, in
 * chunks the collector and the browser's beacon quota take. The browser delivers a beacon, and a
 * request under way, after the page is gone, and nobody hears its answer: its events stay in the
 * stored queue until the collector's acknowledgement (the gf_ack cookie) reaches a later page.
 * Acknowledged, they are never sent again; unacknowledged after ACK_WAIT_MS, they go again.
 */

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sending by beacon', () => {
  it('sends everything waiting, in chunks of at most 100 events, each naming its batch', () => {
    const { tracker, transport, limits } = trackerUnderTest();
    limits.uploadThreshold = 1000;
    for (let i = 0; i < 229; i++) tracker.track('click');
    expect(tracker.sendByBeacon()).toBe(230);
    expect(transport.beacons.map((beacon) => beacon.events.length)).toEqual([100, 100, 30]);
    const batches = transport.beacons.map((beacon) => batchOf(beacon.url));
    expect(batches.every((batch) => isBatchId(batch))).toBe(true);
    expect(new Set(batches).size).toBe(3);
    expect(transport.post).not.toHaveBeenCalled();
  });

  it('keeps each chunk within maxBatchBytes', () => {
    const { tracker, transport, limits } = trackerUnderTest();
    limits.uploadThreshold = 1000;
    for (let i = 0; i < 30; i++) tracker.track('click', { text: 'é'.repeat(3000) });
    tracker.sendByBeacon();
    expect(transport.beacons.length).toBeGreaterThan(1);
    for (const beacon of transport.beacons) {
      expect(beacon.bytes).toBeLessThanOrEqual(ANALYTICS_LIMITS.maxBatchBytes);
    }
    expect(transport.beacons.flatMap((beacon) => beacon.events)).toHaveLength(31);
  });

  it('does not send the same events twice when hidden, then left', () => {
    const { tracker, transport } = trackerUnderTest();
    tracker.track('load');
    tracker.sendByBeacon(); // visibilitychange: hidden
    tracker.sendByBeacon(); // pagehide
    expect(transport.beacons).toHaveLength(1);
  });

  it('stops at the first chunk the browser refuses (quota full): the rest wait for a later page', async () => {
    const { tracker, transport, limits } = trackerUnderTest();
    limits.uploadThreshold = 1000;
    for (let i = 0; i < 249; i++) tracker.track('click');
    transport.beaconQuota = 1;
    expect(tracker.sendByBeacon()).toBe(100);
    expect(tracker.queue.ready(Date.now())).toHaveLength(150);
    transport.autoAnswer = 200;
    await tracker.flush();
    expect(transport.requests.flatMap((request) => request.events)).toHaveLength(150);
  });
});

/** The next screen: a new document's tracker over the same storage and network. */
function nextPage(previous: ReturnType<typeof trackerUnderTest>) {
  return trackerUnderTest({
    storage: previous.storage,
    transport: previous.transport,
    log: fakeLog(),
  });
}

const ids = (events: readonly { insert_id: string }[]) => events.map((event) => event.insert_id);

/** Everything sent after the first `beacons` beacons: requests, then the later beacons. */
const sentAfter = (transport: ReturnType<typeof trackerUnderTest>['transport'], beacons = 1) => [
  ...transport.requests.flatMap((request) => request.events),
  ...transport.beacons.slice(beacons).flatMap((beacon) => beacon.events),
];

describe('what the browser took as the page went is sent once the collector has it', () => {
  it('an acknowledged beacon is never sent again by the next page, however long the visitor stays', async () => {
    const first = trackerUnderTest();
    first.tracker.track('load');
    first.tracker.sendByBeacon();
    expect(names(first.transport.beacons[0]!.events)).toEqual(['session_start', 'load']);
    expect(first.tracker.queue.size()).toBe(2);
    first.transport.deliverBeacons();

    const next = nextPage(first);
    first.transport.autoAnswer = 200;
    next.tracker.start();
    expect(next.tracker.queue.size()).toBe(0);
    next.tracker.track('load');
    // The uploads of ten minutes of reading, then the page is left.
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    next.tracker.sendByBeacon();
    next.tracker.stop();
    expect(names(sentAfter(first.transport))).toEqual(['load']);
  });

  it('a beacon lost on the way is sent again by the next page, once, then forgotten when answered', async () => {
    const first = trackerUnderTest();
    first.tracker.track('load');
    first.tracker.sendByBeacon();
    const lost = first.transport.beacons[0]!.events;

    const next = nextPage(first);
    first.transport.autoAnswer = 200;
    next.tracker.start();
    // Within ACK_WAIT_MS the acknowledgement may still be on its way: nothing goes again yet.
    await next.tracker.flush();
    expect(first.transport.requests).toEqual([]);
    vi.advanceTimersByTime(ACK_WAIT_MS);
    await next.tracker.flush();
    expect(ids(first.transport.pending().events)).toEqual(ids(lost));
    expect(next.tracker.queue.size()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    next.tracker.sendByBeacon();
    expect(sentAfter(first.transport)).toHaveLength(2);
  });

  it('a beacon lost on the way goes with the next page’s own beacon when that page is left', () => {
    const first = trackerUnderTest();
    first.tracker.track('load');
    first.tracker.sendByBeacon();
    const lost = first.transport.beacons[0]!.events;

    vi.advanceTimersByTime(ACK_WAIT_MS + 1);
    const next = nextPage(first);
    next.tracker.start();
    next.tracker.track('click');
    next.tracker.sendByBeacon();
    expect(ids(first.transport.beacons[1]!.events)).toEqual([...ids(lost), 'insert-0001']);
  });

  it('an acknowledgement that comes after the wait still counts, even once the events went again', () => {
    const first = trackerUnderTest();
    first.tracker.track('load');
    first.tracker.sendByBeacon();
    vi.advanceTimersByTime(ACK_WAIT_MS + 1);
    first.tracker.sendByBeacon(); // hidden again: the first beacon seems lost, they go again
    expect(first.transport.beacons).toHaveLength(2);
    // The first beacon's acknowledgement arrives; the second one's never does.
    first.transport.acked.push(batchOf(first.transport.beacons[0]!.url)!);
    vi.advanceTimersByTime(ACK_WAIT_MS + 1);
    const next = nextPage(first);
    next.tracker.sendByBeacon();
    expect(first.transport.beacons).toHaveLength(2);
    expect(next.tracker.queue.size()).toBe(0);
  });

  it('events awaiting an acknowledgement count towards the saved maximum, and give way first', () => {
    const { tracker, log } = trackerUnderTest({
      limits: { ...ANALYTICS_LIMITS, savedMaxCount: 10, uploadThreshold: 1000 },
    });
    for (let i = 0; i < 5; i++) tracker.track('click');
    tracker.sendByBeacon();
    for (let i = 0; i < 8; i++) tracker.track('scroll');
    expect(tracker.queue.size()).toBe(10);
    expect(tracker.queue.dropped()).toBe(4);
    expect(names(tracker.queue.ready(Date.now()))).toEqual(Array(8).fill('scroll'));
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('over 10 saved'));
  });

  it('does not beacon a batch a request is carrying; acknowledged, the next page does not send it', async () => {
    const first = trackerUnderTest();
    for (let i = 0; i < 29; i++) first.tracker.track('click');
    const underWay = first.transport.pending();
    first.tracker.track('load');
    first.tracker.sendByBeacon();
    expect(names(first.transport.beacons[0]!.events)).toEqual(['load']);
    expect(first.tracker.queue.ready(Date.now())).toEqual([]);

    // The page is gone and its answer never heard; the collector's cookie says it got both.
    first.transport.acked.push(batchOf(underWay.url)!);
    first.transport.deliverBeacons();
    vi.advanceTimersByTime(SEND_LEASE_MS + 1);
    const next = nextPage(first);
    first.transport.autoAnswer = 200;
    await next.tracker.flush();
    expect(first.transport.requests).toEqual([underWay]);
    expect(next.tracker.queue.size()).toBe(0);
  });

  it('a request under way as the page went, never acknowledged, is sent again by the next page', async () => {
    const first = trackerUnderTest();
    for (let i = 0; i < 29; i++) first.tracker.track('click');
    const underWay = first.transport.pending();
    first.tracker.sendByBeacon();

    vi.advanceTimersByTime(ACK_WAIT_MS + 1);
    const next = nextPage(first);
    first.transport.autoAnswer = 200;
    await next.tracker.flush();
    expect(ids(first.transport.pending().events)).toEqual(ids(underWay.events));
    expect(next.tracker.queue.size()).toBe(0);
  });

  it('a request failed just before pagehide, as Chromium does, waits for its acknowledgement', async () => {
    const first = trackerUnderTest();
    for (let i = 0; i < 29; i++) first.tracker.track('click');
    // Chromium rejects the page's fetch as it commits the next page, then fires pagehide in the
    // same task; the keepalive request itself still reaches the collector.
    const underWay = first.transport.pending();
    underWay.answer(0);
    await Promise.resolve();
    first.tracker.sendByBeacon();
    await settle();
    expect(first.transport.beacons).toEqual([]);
    expect(first.tracker.queue.ready(Date.now())).toEqual([]);

    first.transport.acked.push(batchOf(underWay.url)!);
    const next = nextPage(first);
    first.transport.autoAnswer = 200;
    vi.advanceTimersByTime(SEND_LEASE_MS + 1);
    await next.tracker.flush();
    expect(first.transport.requests).toHaveLength(1);
    expect(next.tracker.queue.size()).toBe(0);
  });

  it('a failure heard after the page was hidden makes the events ready, and they go again', async () => {
    const { tracker, transport } = trackerUnderTest();
    for (let i = 0; i < 29; i++) tracker.track('click');
    const underWay = transport.pending();
    tracker.sendByBeacon(); // visibilitychange: hidden, the tab stays open
    expect(tracker.queue.ready(Date.now())).toEqual([]);
    underWay.answer(503);
    await settle();
    expect(tracker.queue.ready(Date.now())).toHaveLength(30);
    await vi.advanceTimersToNextTimerAsync();
    expect(ids(transport.pending().events)).toEqual(ids(underWay.events));
    transport.pending().answer(200);
    await settle();
    expect(tracker.queue.size()).toBe(0);
  });

  it('a request that failed while the page stayed goes by beacon when it is left, once', async () => {
    const { tracker, transport } = trackerUnderTest();
    for (let i = 0; i < 29; i++) tracker.track('click');
    transport.pending().answer(0);
    await settle();
    expect(tracker.queue.ready(Date.now())).toHaveLength(30);
    tracker.sendByBeacon();
    tracker.sendByBeacon();
    expect(transport.beacons.flatMap((beacon) => beacon.events)).toHaveLength(30);
    expect(tracker.queue.ready(Date.now())).toEqual([]);
  });

  it('a page that ends without pagehide (a crash) has its request sent again after the hold', async () => {
    const first = trackerUnderTest();
    for (let i = 0; i < 29; i++) first.tracker.track('click');
    const lost = first.transport.pending();
    const next = nextPage(first);
    first.transport.autoAnswer = 200;
    await next.tracker.flush();
    expect(first.transport.requests).toHaveLength(1);
    vi.advanceTimersByTime(SEND_LEASE_MS + 1);
    await next.tracker.flush();
    expect(ids(first.transport.pending().events)).toEqual(ids(lost.events));
    expect(next.tracker.queue.size()).toBe(0);
  });
});

describe('a browser whose acknowledgements never come back', () => {
  it(`gives an event up after ${MAX_HAND_OFFS} unacknowledged beacons`, () => {
    const first = trackerUnderTest();
    let page = first;
    page.tracker.track('load');
    for (let leaving = 1; leaving <= MAX_HAND_OFFS; leaving++) {
      page.tracker.sendByBeacon();
      vi.advanceTimersByTime(ACK_WAIT_MS + 1);
      page = nextPage(first);
    }
    expect(page.tracker.queue.size()).toBe(0);
    expect(first.transport.beacons.map((beacon) => names(beacon.events))).toEqual(
      Array(MAX_HAND_OFFS).fill(['session_start', 'load']),
    );
  });

  it('keeping no cookies at all, counts a beacon as delivered, as before acknowledgements', () => {
    const first = trackerUnderTest();
    first.transport.cookies = false;
    first.tracker.start();
    first.tracker.track('load');
    first.tracker.sendByBeacon();
    expect(first.tracker.queue.size()).toBe(0);
    first.tracker.stop();
  });
});

describe('packBatches', () => {
  const event = (id: number, text = ''): CollectedEvent => ({
    event_type: 'click',
    insert_id: `insert-${id}`,
    time: 1,
    session_id: 1,
    device_id: 'd',
    user_id: null,
    event_properties: { screen_name: 's', text },
  });

  it('cuts by count and by bytes, in order', () => {
    const events = Array.from({ length: 7 }, (_, i) => event(i, 'x'.repeat(100)));
    const one = JSON.stringify(events[0]).length;
    const { batches, oversized } = packBatches(events, 3, 13 + 2 * one + 1);
    expect(batches.map((batch) => batch.map((each) => each.insert_id))).toEqual([
      ['insert-0', 'insert-1'],
      ['insert-2', 'insert-3'],
      ['insert-4', 'insert-5'],
      ['insert-6'],
    ]);
    expect(oversized).toEqual([]);
    expect(packBatches(events, 3, 100_000).batches.map((batch) => batch.length)).toEqual([3, 3, 1]);
  });

  it('puts an event too large for any body apart', () => {
    const big = event(1, 'x'.repeat(500));
    const { batches, oversized } = packBatches([event(0), big, event(2)], 100, 400);
    expect(oversized).toEqual([big]);
    expect(batches).toEqual([[event(0), event(2)]]);
  });

  it('an oversized event is dropped before any request, logged', async () => {
    const { tracker, transport, log, limits } = trackerUnderTest();
    limits.uploadThreshold = 1000;
    limits.maxBatchBytes = 2000;
    tracker.track('click', { text: 'x'.repeat(3000) });
    transport.autoAnswer = 200;
    await tracker.flush();
    expect(names(transport.requests[0]!.events)).toEqual(['session_start']);
    expect(tracker.queue.size()).toBe(0);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('over 2000 bytes'), [
      expect.any(String),
    ]);
  });
});
