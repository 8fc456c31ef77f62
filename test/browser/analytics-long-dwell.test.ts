import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_KEY } from '../../islands/analytics/queue';
import type { CollectedEvent } from '../../shared/analytics/batch';
import { type CollectorTap, startCollectorTap } from './collector-tap';
import { storedEvents, visitorUuid } from './event-store';
import { type BrowserSession, startBrowserSession, watchPage } from './harness';
import { walkToSuccess } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * A visitor who reads every screen for a while, longer than the tracker's upload period and
 * holds, buys the plan and the upsell, and each event goes to the collector once. The pages run
 * on Playwright's clock, which the test moves on through each stay (the timers due meanwhile
 * fire, as they would), so the suite does not wait. Every `POST /e` the browser makes, by fetch
 * or by beacon, is read on its way to the worker (collector-tap.ts).
 */

/**
 * The screen each path of the walk shows (the events' screen_name), and how long the visitor
 * stays on it once its tracker runs: past the upload period (30 s), the request time-out (20 s)
 * and the hold of a request under way (SEND_LEASE_MS, 60 s).
 */
const STAYS: Record<string, [screen: string, ms: number]> = {
  '/': ['one_pager', 15_000],
  '/searching': ['searching', 45_000],
  '/signup': ['signup', 90_000],
  '/checkout_v3_tr': ['checkout_v3_tr', 15_000],
  '/upsell_an_private': ['upsell_an_private', 45_000],
  '/success': ['success', 90_000],
};

/**
 * The clock's steps through a stay. The network keeps real time: a step ends once the page has
 * heard the answer to what it sent during it, as it would have within those seconds. Waiting on
 * the collector instead is not enough: a request still on its way to it (a loaded machine) let
 * the clock run past its hold, and the page rightly sent its events again.
 */
const STEP_MS = 5_000;

let session: BrowserSession;
let tap: CollectorTap;
beforeAll(async () => {
  session = await startBrowserSession();
  tap = await startCollectorTap(session.worker.url);
});
afterAll(async () => {
  await tap?.stop();
  await session?.stop();
});

/** The collector's log lines of `POST /e`: events received and events accepted as new. */
function collectorTotals() {
  const lines = session.worker.logs.filter((line) => line.path === '/e');
  const sum = (field: string) =>
    lines.reduce((total, line) => total + (typeof line[field] === 'number' ? line[field] : 0), 0);
  return { received: sum('events'), accepted: sum('accepted') };
}

/**
 * The page's tracker has a request under way: events in its queue held by a request (queue.ts
 * `hold`) until the answer removes them or, on a failure, releases them. Events an earlier
 * page handed to a beacon (`batches`) wait for its acknowledgement instead.
 */
function requestUnderWay(page: Page) {
  return page.evaluate((key) => {
    const queue = JSON.parse(localStorage.getItem(key) ?? '{"entries":[]}');
    return queue.entries.some(
      (entry: { until?: number; batches?: string[] }) =>
        entry.until !== undefined && entry.batches === undefined,
    );
  }, QUEUE_KEY);
}

/** This document's tracker has taken its page's load: waiting in the queue, or already sent. */
async function trackerTookLoad(page: Page, screen: string, sent: CollectedEvent[]) {
  const type = `${screen}__load`;
  if (sent.some((event) => event.event_type === type)) return true;
  return page.evaluate(
    ({ key, type }) =>
      (localStorage.getItem(key) ?? '').includes(`"event_type":${JSON.stringify(type)}`),
    { key: QUEUE_KEY, type },
  );
}

describe('a visitor who stays on each screen longer than the upload leases', () => {
  // slow: a visitor who outstays the upload leases on each screen, by design
  it('sends each event to the collector once, and every event sent is kept', async () => {
    // A context of its own: the pool's are reused by later visitors, and a clock outlives its
    // visitor.
    const context = await session.browser.newContext({ baseURL: tap.url.href });
    const page = await context.newPage();
    const { problems } = watchPage(page);
    const { sent } = tap;
    // From now on the visitor's clock runs with real time, and jumps where the test says.
    await context.clock.install();

    const dwell = async (onPage: Page, path: string) => {
      const [screen, stay] = STAYS[path] ?? [path, 0];
      await onPage.waitForURL((url) => url.pathname === path, { timeout: PATIENCE_MS });
      await interactive(onPage);
      await expect
        .poll(() => trackerTookLoad(onPage, screen, sent), { timeout: PATIENCE_MS, interval: 100 })
        .toBe(true);
      for (let stayed = 0; stayed < stay; stayed += STEP_MS) {
        await onPage.clock.runFor(STEP_MS);
        await expect
          .poll(() => requestUnderWay(onPage), { timeout: PATIENCE_MS, interval: 50 })
          .toBe(false);
      }
    };
    await walkToSuccess(page, { emailLabel: 'dwell', ready: dwell });
    // Leaving the last screen sends what it still holds.
    await page.goto('about:blank');
    const device = await visitorUuid(context);

    // Everything sent has been answered and stored, the last screen's events included.
    await expect
      .poll(
        async () => {
          const stored = await storedEvents(session, device);
          const { received, accepted } = collectorTotals();
          return {
            last: stored.some((event) => event.event_type === 'success__load'),
            notYetReceived: sent.length - received,
            notYetStored: accepted - stored.length,
          };
        },
        { timeout: PATIENCE_MS, interval: 250 },
      )
      .toEqual({ last: true, notYetReceived: 0, notYetStored: 0 });
    const stored = await storedEvents(session, device);

    // Each insert_id went out once, and every event sent was kept: none was sent for nothing.
    const sentBefore = new Set<string>();
    const sentAgain: string[] = [];
    for (const event of sent) {
      if (sentBefore.has(event.insert_id)) {
        sentAgain.push(`${event.event_type} on ${event.event_properties.screen_name}`);
      }
      sentBefore.add(event.insert_id);
    }
    expect(sentAgain).toEqual([]);
    expect({ sent: sent.length, kept: collectorTotals().accepted }).toEqual({
      sent: stored.length,
      kept: stored.length,
    });
    expect(sentBefore).toEqual(new Set(stored.map((event) => event.insert_id)));
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
