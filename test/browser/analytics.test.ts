import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents as storedVisitorEvents, visitorUuid } from './event-store';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * The browser tracker in Chromium against the worker's own collector (`POST /e`, its queue and
 * local event store, read back from EVENTS_DB): the tracker loaded off the page's critical path,
 * and the beacon Chromium sends from its own process as a tab is closed. What the tracker sends
 * and when, and what it does with each answer, is test/unit/analytics/'s; a whole journey's
 * events, analytics-journey.test.ts's and analytics-fast-visitor.test.ts's.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** What the collector stored for one visitor, in arrival order. */
const storedEvents = (deviceId: string) => storedVisitorEvents(session, deviceId);

/** How many of the visitor's stored events have each name. */
async function storedCounts(deviceId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const event of await storedEvents(deviceId)) {
    counts[event.event_type] = (counts[event.event_type] ?? 0) + 1;
  }
  return counts;
}

/** The collector's queue hands events to the store in batches that wait up to a second. */
const STORED = { timeout: PATIENCE_MS };

/** The worker's log lines of `POST /e` since the test began. */
const collectorLines = () => session.worker.logs.filter((line) => line.path === '/e');

/**
 * Waits until the stored counts hold `expected`. Should they not in time, the failure carries
 * what the collector said meanwhile (its answers to `POST /e`, its queue's batches) and the
 * worker's errors, which tell a beacon never sent from one the queue has not delivered yet (a
 * retry backs off 30 s or more: worker/collector/consumer/outcome.ts).
 */
async function storedWithin(
  counts: () => Promise<Record<string, number>>,
  expected: Record<string, number>,
): Promise<void> {
  try {
    await expect.poll(counts, STORED).toMatchObject(expected);
  } catch (error) {
    const said = session.worker.logs.filter(
      (line) => line.path === '/e' || 'queue' in line || Boolean(line.error),
    );
    throw new Error(
      `${(error as Error).message}\nthe collector and the worker's errors meanwhile:\n${said.map((line) => JSON.stringify(line)).join('\n')}`,
      { cause: error },
    );
  }
}

/** The tracker has loaded (after the page became interactive) and queued the page's load. */
async function queuedFor(page: Page, eventName: string): Promise<void> {
  await page.waitForFunction(
    (name) => (localStorage.getItem('gf:analytics:queue') ?? '').includes(`"${name}"`),
    eventName,
  );
}

describe('the analytics tracker in Chromium (SPEC.md §3, §4, §7, §9)', () => {
  it('a landing’s load and a Continue click right before the tab closes reach the collector in one beacon, once each', async () => {
    session.worker.logs.length = 0;
    const { context, page, problems } = await session.newVisitor();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    const response = await page.goto('/?skip_split=true&gclid=g-1');
    const html = (await response?.text()) ?? '';
    await interactive(page);
    await queuedFor(page, 'one_pager__load');
    // The tracker is not on the page's critical path: neither preloaded nor imported up front.
    const tracker = scripts.find((url) => /\/assets\/tracker-[\w-]+\.js$/.test(url));
    expect(tracker).toBeDefined();
    expect(html).not.toContain(new URL(tracker!).pathname);

    // Locate with no number: the field says why and the page stays; then the tab is closed.
    await page.locator('#continue-button').click();
    await page.close({ runBeforeUnload: true });
    const device = await visitorUuid(context);
    await storedWithin(() => storedCounts(device), { button__continue: 1 });
    expect(await storedCounts(device)).toEqual({
      session_start: 1,
      load: 1,
      screen__load: 1,
      one_pager__load: 1,
      click: 1,
      one_pager__click: 1,
      button__continue: 1,
    });
    const events = await storedEvents(device);
    for (const event of events) {
      expect(event.user_id).toBeNull();
      expect(event.session_id).toBe(events[0]!.session_id);
      expect(event.event_properties).toMatchObject({
        screen_name: 'one_pager',
        variant: 'default',
        flow: 'default',
        config_version: expect.any(String),
        google_click_id: 'g-1',
        uuid: device,
      });
    }
    const click = events.find((e) => e.event_type === 'button__continue');
    expect(click!.event_properties).toMatchObject({
      element_id: 'continue-button',
      element_role: 'button',
      element_tag: 'button',
    });
    // One beacon, every event new to the collector.
    expect(collectorLines()).toMatchObject([{ status: 200, accepted: 7, duplicates: 0 }]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
