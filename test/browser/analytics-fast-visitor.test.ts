import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_KEY } from '../../islands/analytics/session';
import { type StoredVisitorEvent, storedEvents, visitorUuid } from './event-store';
import { type BrowserSession, startBrowserSession } from './harness';
import { walkToSuccess } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * The race fixed in c96bcb3: a visitor faster than the tracker. Every page's tracker chunk is
 * held on its way to the browser and the visitor moves on as soon as each screen is usable,
 * leaving success before its tracker arrived; only a later visit (a fresh tab in the same
 * browser) lets a tracker load. The local event store must still tell the true story: each
 * purchase on the screen and at the moment it was made, anonymous until the lead, the last
 * screen's events not lost, and nothing twice.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

type Row = StoredVisitorEvent;

/** The visitor's stored events in the order they happened (their clock, then arrival). */
const storedStory = (deviceId: string) => storedEvents(session, deviceId, 'happened');

/** Events the collector acknowledged as new over every `POST /e` of this session's worker. */
const acknowledged = () =>
  session.worker.logs
    .filter((line) => line.path === '/e')
    .reduce((sum, line) => sum + (typeof line.accepted === 'number' ? line.accepted : 0), 0);

/** The tracker's chunks, as the page asks for them. */
const TRACKER_CHUNKS = '**/tracker-*.js';

/**
 * Holds every tracker chunk download (start.ts asks for it once the page is interactive and idle)
 * until `release()`; routing also turns off the HTTP cache, so each page downloads it again. A
 * page left meanwhile cancels its request, and its tracker never runs.
 */
async function heldTracker(context: BrowserContext): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await context.route(TRACKER_CHUNKS, async (route) => {
    await released;
    try {
      await route.continue();
    } catch {
      // The page was left while its tracker was held: that is the race under test.
    }
  });
  return release;
}

/** The screen is usable: the URL is the screen's and every island has hydrated. */
async function usable(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: PATIENCE_MS });
  await interactive(page);
}

/** This document's tracker has run: the session's latest event is from this document. */
async function trackerRan(page: Page): Promise<boolean> {
  return page.evaluate((key) => {
    const stored = JSON.parse(localStorage.getItem(key) ?? 'null') as { last?: number } | null;
    return (stored?.last ?? 0) >= Math.floor(performance.timeOrigin);
  }, SESSION_KEY);
}

/** One entry per screen visit: consecutive events of one screen, in time order. */
function screenVisits(events: Row[]): { screen: string; types: string[] }[] {
  const visits: { screen: string; types: string[] }[] = [];
  for (const event of events) {
    const screen = event.screen_name ?? '';
    const last = visits.at(-1);
    if (last?.screen === screen) last.types.push(event.event_type);
    else visits.push({ screen, types: [event.event_type] });
  }
  return visits;
}

const WALKED = [
  'one_pager',
  'searching',
  'signup',
  'checkout_v3_tr',
  'upsell_an_private',
  'success',
];

describe('a visitor faster than the tracker (c96bcb3) in the local event store', () => {
  // slow: a whole journey, landing to success with a payment, each page left before its tracker
  it('leaves each event once, purchases on their screen before success, anonymous until the lead, success not lost', async () => {
    const { context, page, problems } = await session.newVisitor();
    const releaseTracker = await heldTracker(context);

    // Gone from success the moment it is interactive, its tracker still held.
    const userId = await walkToSuccess(page, { emailLabel: 'fast', ready: usable });
    expect(await trackerRan(page)).toBe(false);
    await page.goto('about:blank');
    const device = await visitorUuid(context);
    expect(device).not.toBe('');

    // The next visit, in a fresh tab of the same browser: its tracker loads once the page is
    // usable, sends what the earlier pages left behind, and leaving the page sends the rest by
    // beacon.
    const nextVisitAt = Date.now();
    const next = await context.newPage();
    await next.goto('/');
    await usable(next, '/');
    releaseTracker();
    await expect.poll(() => trackerRan(next), { timeout: PATIENCE_MS, interval: 250 }).toBe(true);
    // The hold has done its work. While a route is on, every request of the context passes
    // through this process, the beacon the page sends as it goes too: a full run once lost it
    // there (the collector never heard of the next visit), which a visitor's browser, routing
    // nothing, does not.
    await context.unroute(TRACKER_CHUNKS);
    await next.goto('about:blank');

    // Everything the collector acknowledged as new (this worker serves no other visitor) has
    // reached the store, the next visit's own load included.
    await expect
      .poll(
        async () => {
          const stored = await storedStory(device);
          return {
            nextVisit: stored.some((e) => e.event_type === 'screen__load' && e.time >= nextVisitAt),
            notYetStored: acknowledged() - stored.length,
          };
        },
        { timeout: PATIENCE_MS, interval: 250 },
      )
      .toEqual({ nextVisit: true, notYetStored: 0 });
    const events = await storedStory(device);
    const on = (type: string, screen: string) =>
      events.findIndex((e) => e.event_type === type && e.screen_name === screen);

    // The last screen's events and the milestones arrived.
    for (const [type, screen] of [
      ['load', 'success'],
      ['screen__load', 'success'],
      ['success__load', 'success'],
      ['payment_successful_popup', 'checkout_v3_tr'],
      ['lead', 'signup'],
      ['subs_purchase_started', 'checkout_v3_tr'],
      ['subs_purchase_started', 'upsell_an_private'],
    ] as const) {
      expect(on(type, screen), `${type} on ${screen}`).toBeGreaterThanOrEqual(0);
    }

    // Each purchase on the screen it was made, at the time it was made: before success.
    const success = on('success__load', 'success');
    const completed = (type: string) =>
      events
        .filter((e) => e.event_type === type)
        .map((e) => [e.screen_name, e.time < events[success]!.time]);
    // The receipt confirmed the main purchase before the upsell was offered. The purchase and
    // the popup happen in one task, so they may share a millisecond: compare their times, as the
    // stored order of a tie is only the order the tracker sent them in.
    const timeOf = (type: string, screen: string) => events[on(type, screen)]!.time;
    expect(timeOf('subs_purchase_completed', 'checkout_v3_tr')).toBeLessThanOrEqual(
      timeOf('payment_successful_popup', 'checkout_v3_tr'),
    );
    expect(on('payment_successful_popup', 'checkout_v3_tr')).toBeLessThan(
      on('load', 'upsell_an_private'),
    );
    expect(completed('subs_purchase_completed')).toEqual([['checkout_v3_tr', true]]);
    expect(completed('upsell_purchase_completed')).toEqual([['upsell_an_private', true]]);

    // Anonymous until the lead, the signed-up user from then on.
    const lead = events.findIndex((e) => e.event_type === 'lead');
    expect(events.slice(0, lead).map((e) => [e.event_type, e.screen_name, e.user_id])).toEqual(
      events.slice(0, lead).map((e) => [e.event_type, e.screen_name, null]),
    );
    expect(events.slice(lead).map((e) => [e.event_type, e.screen_name, e.user_id])).toEqual(
      events.slice(lead).map((e) => [e.event_type, e.screen_name, userId]),
    );

    // Each event once: every insert_id once, the screens visited in the order walked (then the
    // next visit), and no event type twice within one screen visit but the checkout's clicks (Pay
    // and the receipt's Continue).
    expect(new Set(events.map((e) => e.insert_id)).size).toBe(events.length);
    const visits = screenVisits(events);
    expect(visits.map((visit) => visit.screen)).toEqual([...WALKED, 'one_pager']);
    // The landing's Continue, clicked before its tracker could load and moving on at once, is
    // the landing's; the search screen, left as fast, tells its own load and search.
    expect(visits[0]!.types).toEqual(
      expect.arrayContaining(['click', 'one_pager__click', 'button__continue', 'onboarding_start']),
    );
    expect(visits[1]!.types).toEqual(
      expect.arrayContaining(['load', 'screen__load', 'searching__load', 'processing_started']),
    );
    for (const { screen, types } of visits) {
      expect(
        types.filter((type, index) => types.indexOf(type) !== index),
        screen,
      ).toEqual(screen === 'checkout_v3_tr' ? ['click', 'checkout_v3_tr__click'] : []);
    }

    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);
});
