import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACK_WAIT_MS } from '../../../islands/analytics/queue';
import { MAX_HAND_OFFS } from '../../../islands/analytics/uploader';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import { ANALYTICS_LIMITS } from '../../../shared/analytics/limits';
import { batchOf, fakeLog, settle, trackerUnderTest } from './fakes';

/**
 * At least once, end to end, over any interleaving of a visitor's pages: events tracked, pages
 * left (their beacons delivered at once, late, or lost on the way), time passing (the period's
 * uploads, which the collector answers). The collector's acknowledgement of a batch reaches the
 * tracker through the gf_ack cookie (the fake transport's `acked`).
 */

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

type Fate = 'delivered' | 'late' | 'lost';
type Step =
  | { kind: 'track'; count: number }
  | { kind: 'leave'; fates: Fate[]; gapMs: number }
  | { kind: 'wait'; ms: number }
  | { kind: 'arrive' };

const fate = fc.constantFrom<Fate>('delivered', 'late', 'lost');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('track' as const), count: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('leave' as const),
    fates: fc.array(fate, { minLength: 4, maxLength: 4 }),
    gapMs: fc.integer({ min: 0, max: 3 * ACK_WAIT_MS }),
  }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 90_000 }) }),
  fc.record({ kind: fc.constant('arrive' as const) }),
);

const SAVED_MAX = 60;

async function visit(steps: Step[]) {
  const limits = { ...ANALYTICS_LIMITS, savedMaxCount: SAVED_MAX, batchSize: 25 };
  const tracked = new Set<string>();
  let ids = 0;
  // Ids unique over the whole visit, every page's; every event tracked (session_start too).
  const visitWide = {
    limits,
    randomId: () => `insert-${++ids}`,
    batchId: () => (++ids).toString(16).padStart(12, '0'),
    notify: (event: CollectedEvent) => tracked.add(event.insert_id),
  };
  const first = trackerUnderTest(visitWide);
  const { transport, storage } = first;
  transport.autoAnswer = 200;
  let page = first.tracker;
  page.start();

  /** Events the collector has, and the tracker can know it has (answered or in the cookie). */
  const acknowledged = new Set<string>();
  const received = new Set<string>();
  /** Per event, how many beacons carrying it never arrived (lost, or late past the visit). */
  const lostTimes = new Map<string, number>();
  const late: { id: string; events: CollectedEvent[] }[] = [];
  const sentAgain: string[] = [];
  /** Per event, how many requests and beacons carried it. */
  const sends = new Map<string, number>();
  let requestsSeen = 0;
  let beaconsSeen = 0;

  const receive = (events: CollectedEvent[]) => {
    for (const event of events) {
      received.add(event.insert_id);
      acknowledged.add(event.insert_id);
    }
  };
  const mustBeNew = (events: CollectedEvent[]) => {
    for (const event of events) {
      sends.set(event.insert_id, (sends.get(event.insert_id) ?? 0) + 1);
      if (acknowledged.has(event.insert_id)) sentAgain.push(event.insert_id);
    }
  };
  /** Looks at what was sent since the last look: answered requests are received at once. */
  const newSends = (fates: Fate[] = []) => {
    for (const request of transport.requests.slice(requestsSeen)) {
      mustBeNew(request.events);
      receive(request.events);
    }
    requestsSeen = transport.requests.length;
    transport.beacons.slice(beaconsSeen).forEach((beacon, index) => {
      mustBeNew(beacon.events);
      const id = batchOf(beacon.url) ?? '';
      const outcome = fates[index % Math.max(1, fates.length)] ?? 'delivered';
      if (outcome === 'delivered') {
        receive(beacon.events);
        transport.acked.push(id);
      } else if (outcome === 'late') {
        late.push({ id, events: beacon.events });
      } else {
        for (const event of beacon.events) {
          lostTimes.set(event.insert_id, (lostTimes.get(event.insert_id) ?? 0) + 1);
        }
      }
    });
    beaconsSeen = transport.beacons.length;
  };

  for (const each of steps) {
    if (each.kind === 'track') {
      for (let i = 0; i < each.count; i++) page.track('click');
      await settle();
      newSends();
    } else if (each.kind === 'leave') {
      page.sendByBeacon();
      page.stop();
      newSends(each.fates);
      vi.advanceTimersByTime(each.gapMs);
      page = trackerUnderTest({ ...visitWide, storage, transport, log: fakeLog() }).tracker;
      page.start();
      await settle();
      newSends();
    } else if (each.kind === 'wait') {
      await vi.advanceTimersByTimeAsync(each.ms);
      newSends();
    } else {
      for (const { id, events } of late.splice(0)) {
        receive(events);
        transport.acked.push(id);
      }
    }
    expect(page.queue.size()).toBeLessThanOrEqual(SAVED_MAX);
  }

  // The visitor comes back once the network is good: everything still waiting arrives. A beacon
  // still late by then never does: for the tracker it was one more hand-off lost.
  for (const { events } of late.splice(0)) {
    for (const event of events) {
      lostTimes.set(event.insert_id, (lostTimes.get(event.insert_id) ?? 0) + 1);
    }
  }
  await vi.advanceTimersByTimeAsync(ACK_WAIT_MS + limits.periodMs);
  await page.flush();
  newSends();
  page.stop();
  return { page, tracked, received, lostTimes, sentAgain, sends };
}

describe('delivery over any interleaving of pages, beacons and acknowledgements', () => {
  it('never sends an acknowledged event again, and every event arrives unless given up or capped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
        const { page, tracked, received, lostTimes, sentAgain } = await visit(steps);
        expect(sentAgain).toEqual([]);
        expect(page.queue.size()).toBe(0);
        const missing = [...tracked].filter((id) => !received.has(id));
        // Given up: handed to the browser MAX_HAND_OFFS times, every time lost.
        const notGivenUp = missing.filter((id) => (lostTimes.get(id) ?? 0) < MAX_HAND_OFFS);
        // The rest gave way to newer events over the saved maximum, counted as dropped.
        expect(notGivenUp.length).toBeLessThanOrEqual(page.queue.dropped());
      }),
      { numRuns: 150 },
    );
  });

  it('with every beacon delivered, each event is sent once, and only the capped are missing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          step.map(
            (each): Step => (each.kind === 'leave' ? { ...each, fates: ['delivered'] } : each),
          ),
          { minLength: 1, maxLength: 25 },
        ),
        async (steps) => {
          vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
          const { page, tracked, received, sends } = await visit(steps);
          const missing = [...tracked].filter((id) => !received.has(id));
          expect(missing.length).toBeLessThanOrEqual(page.queue.dropped());
          expect([...sends.values()].every((times) => times === 1)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
