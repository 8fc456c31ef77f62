import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACK_WAIT_MS, QUEUE_KEY } from '../../islands/analytics/queue';
import { type CollectorTap, startCollectorTap } from './collector-tap';
import { storedEvents, visitorUuid } from './event-store';
import { type BrowserSession, startBrowserSession, watchPage } from './harness';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * At least once, in Chromium: a beacon the browser took as the page was left but that never
 * reached the collector (the tap cuts it on the way, collector-tap.ts) is sent again by the next
 * page, and stored once; a beacon that did arrive is acknowledged through the collector's
 * `gf_ack` cookie and never sent again. The pages run on Playwright's clock, which the test moves
 * past the wait for an acknowledgement (ACK_WAIT_MS).
 */

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

/** The insert ids of this document's tracker's load events, once it has queued them. */
async function queuedLoad(page: Page): Promise<string[]> {
  await page.waitForURL((url) => url.pathname === '/', { timeout: PATIENCE_MS });
  await interactive(page);
  await page.waitForFunction(
    ({ key, since }) => {
      const queue = JSON.parse(localStorage.getItem(key) ?? '{"entries":[]}');
      return queue.entries.some(
        (entry: { event: { event_type: string; time: number } }) =>
          entry.event.event_type === 'one_pager__load' && entry.event.time >= since,
      );
    },
    { key: QUEUE_KEY, since: await page.evaluate(() => Math.floor(performance.timeOrigin)) },
    { timeout: PATIENCE_MS },
  );
  return page.evaluate((key) => {
    const queue = JSON.parse(localStorage.getItem(key) ?? '{"entries":[]}');
    return queue.entries
      .filter((entry: { batches?: string[] }) => entry.batches === undefined)
      .map((entry: { event: { insert_id: string } }) => entry.event.insert_id);
  }, QUEUE_KEY);
}

/** The insert ids stored for the visitor `device`, as often as each was stored. */
async function storedIds(device: string): Promise<string[]> {
  return (await storedEvents(session, device)).map((event) => event.insert_id);
}

/** How many times each insert id went through the tap to the worker. */
function timesSent(): Map<string, number> {
  const times = new Map<string, number>();
  for (const event of tap.sent) times.set(event.insert_id, (times.get(event.insert_id) ?? 0) + 1);
  return times;
}

describe('a beacon lost on the way', () => {
  it('is sent again by the next page and stored once; one that arrived is never sent again', async () => {
    const context = await session.browser.newContext({ baseURL: tap.url.href });
    const page = await context.newPage();
    const { problems } = watchPage(page);
    await context.clock.install();

    // The landing's tracker queues its load; the visitor leaves and the beacon is lost.
    await page.goto('/');
    const first = await queuedLoad(page);
    tap.dropping = true;
    await page.goto('about:blank');
    await expect
      // Chromium tries a cut request again a few times before it gives up.
      .poll(() => [...new Set(tap.dropped.map((event) => event.insert_id))].sort(), {
        timeout: PATIENCE_MS,
      })
      .toEqual([...first].sort());
    tap.dropping = false;
    const device = await visitorUuid(context);
    expect(tap.sent).toEqual([]);

    // The next page: its own load, and the lost events once the acknowledgement did not come.
    await page.goto('/');
    const second = await queuedLoad(page);
    await page.clock.runFor(ACK_WAIT_MS + 1_000);
    await page.goto('about:blank');
    await expect
      .poll(async () => storedIds(device), { timeout: PATIENCE_MS, interval: 250 })
      .toEqual(expect.arrayContaining([...first, ...second]));

    // A third page, past the wait again: the second beacon arrived, its acknowledgement came
    // back in the cookie, and nothing of it goes again.
    await page.goto('/');
    const third = await queuedLoad(page);
    await page.clock.runFor(ACK_WAIT_MS + 1_000);
    await page.goto('about:blank');
    await expect
      .poll(async () => storedIds(device), { timeout: PATIENCE_MS, interval: 250 })
      .toEqual(expect.arrayContaining([...first, ...second, ...third]));
    // A page may queue more than its load (the snapshots above are taken once the load is
    // queued): whatever went through reached the worker once and is stored once.
    const sent = () => [...new Set(tap.sent.map((event) => event.insert_id))].sort();
    await expect
      .poll(async () => (await storedIds(device)).sort(), { timeout: PATIENCE_MS, interval: 250 })
      .toEqual(sent());
    expect([...timesSent().entries()].filter(([, times]) => times > 1)).toEqual([]);
    // The tracker took the acknowledgements out of the cookie as it read them: it holds only
    // the last beacon's, which no page has read yet (about 20 bytes on the requests until then).
    const ack = (await context.cookies()).find((cookie) => cookie.name === 'gf_ack');
    expect(ack).toMatchObject({ value: expect.stringMatching(/^[0-9a-f]{12}$/), httpOnly: false });

    // The lost beacon is the only failure the page saw.
    expect(problems.filter((problem) => !/\/e\?b=/.test(problem))).toEqual([]);
    await context.close();
  }, 120_000);
});
