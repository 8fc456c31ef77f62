import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNNEL_EVENTS } from '../../shared/analytics/catalogue';
import { type StoredVisitorEvent, storedEvents, visitorUuid } from './event-store';
import { type BrowserSession, startBrowserSession } from './harness';
import { walkToSuccess } from './money-path';
import { PATIENCE_MS } from './patience';
import { analyticsStarted, interactive } from './visitor-steps';

/**
 * One visitor walks the default flow from `/` to success in Chromium, buying the plan
 * and the upsell, and the worker's own collector (`POST /e`, its queue, the local store in
 * EVENTS_DB) ends up with the funnel's story: each event once, in the order it happened.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

type Stored = StoredVisitorEvent;

/** The visitor's stored events in the order they happened: their own clock, then arrival. */
const visitorEvents = (deviceId: string) => storedEvents(session, deviceId, 'happened');

/**
 * The screen is interactive and its tracker has taken the page's load: the session's latest
 * event (islands/analytics/session.ts) is from this document. A person takes that moment to read
 * the screen; the test waits for it rather than racing the idle-time tracker (start.ts). A
 * visitor faster than the tracker is another story: what a page emitted before its tracker
 * loaded is tracked by a later page, with that moment's user id, and a purchase with that
 * moment's time and screen; the last screen's events wait for a next page.
 */
async function screenReady(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: PATIENCE_MS });
  await interactive(page);
  await analyticsStarted(page);
}

/** How many events the collector acknowledged as new, over every `POST /e` of this worker. */
const acceptedByCollector = () =>
  session.worker.logs
    .filter((line) => line.path === '/e')
    .reduce((sum, line) => sum + (typeof line.accepted === 'number' ? line.accepted : 0), 0);

/**
 * The journey as the local store must tell it, screen by screen (islands/analytics/page-events.ts
 * for the load and click fan-outs, the islands' emit() calls for the funnel steps; a purchase is
 * tracked on the page that paid, as soon as the payment hands it over).
 */
const STORY: [screen: string, events: string[]][] = [
  [
    'one_pager',
    [
      'session_start',
      'load',
      'screen__load',
      'one_pager__load',
      'click',
      'one_pager__click',
      'button__continue',
      'onboarding_start',
    ],
  ],
  [
    'searching',
    [
      'load',
      'screen__load',
      'searching__load',
      'processing_started',
      'click',
      'searching__click',
      'button__continue',
    ],
  ],
  [
    'signup',
    ['load', 'screen__load', 'signup__load', 'click', 'signup__click', 'button__continue', 'lead'],
  ],
  [
    'checkout_v3_tr',
    [
      'load',
      'screen__load',
      'checkout_v3_tr__load',
      'checkout_screen_load',
      'subs_purchase_show',
      'click',
      'checkout_v3_tr__click',
      'button__continue',
      'subs_purchase_started',
      'subs_purchase_completed',
      // The receipt dialog, and its Continue.
      'payment_successful_popup',
      'click',
      'checkout_v3_tr__click',
    ],
  ],
  [
    'upsell_an_private',
    [
      'load',
      'screen__load',
      'upsell_an_private__load',
      'click',
      'upsell_an_private__click',
      'button__continue',
      'subs_purchase_started',
      'upsell_purchase_completed',
    ],
  ],
  ['success', ['load', 'screen__load', 'success__load']],
];

/** The funnel's milestones (SPEC.md §4 funnel events but session_start), in order. */
const MILESTONES = [
  ['onboarding_start', 'one_pager'],
  ['processing_started', 'searching'],
  ['lead', 'signup'],
  ['checkout_screen_load', 'checkout_v3_tr'],
  ['subs_purchase_show', 'checkout_v3_tr'],
  ['subs_purchase_started', 'checkout_v3_tr'],
  ['subs_purchase_completed', 'checkout_v3_tr'],
  ['payment_successful_popup', 'checkout_v3_tr'],
  ['subs_purchase_started', 'upsell_an_private'],
  ['upsell_purchase_completed', 'upsell_an_private'],
];

const WALKED = STORY.map(([screen]) => screen);

/** Consecutive events of one screen, as [screen, event types]. */
function byScreen(events: Stored[]): [string, string[]][] {
  const runs: [string, string[]][] = [];
  for (const event of events) {
    const screen = event.screen_name ?? '';
    const last = runs.at(-1);
    if (last?.[0] === screen) last[1].push(event.event_type);
    else runs.push([screen, [event.event_type]]);
  }
  return runs;
}

describe('a purchase journey in the local event store (SPEC.md §4 Analytics events)', () => {
  // slow: a whole journey from / to success, the plan and the upsell bought, each event read back
  it('from / to success, buying the plan and the upsell, stores each funnel event exactly once, in order', async () => {
    const { context, page, problems } = await session.newVisitor();

    const userId = await walkToSuccess(page, { emailLabel: 'journey', ready: screenReady });
    // Leaving the last screen sends what it still holds, by beacon.
    await page.goto('about:blank');
    const device = await visitorUuid(context);

    // Everything the collector acknowledged as new (this worker serves no other visitor) has
    // reached the store, the last screen's events included. A beacon's events sent again (its
    // acknowledgement late) are answered as duplicates: accepted twice, an event would leave
    // this short.
    await expect
      .poll(
        async () => {
          const stored = await visitorEvents(device);
          return {
            last: stored.some((event) => event.event_type === 'success__load'),
            notYetStored: acceptedByCollector() - stored.length,
          };
        },
        { timeout: PATIENCE_MS, interval: 250 },
      )
      .toEqual({ last: true, notYetStored: 0 });
    const events = await visitorEvents(device);

    // Once each. The store keeps an insert_id once by itself, so what counts is that no event was
    // tracked twice under two ids: every screen being visited once, no event twice on the same
    // screen (subs_purchase_started happens twice, on two screens) but the checkout's two clicks,
    // Pay and the receipt's Continue.
    expect(new Set(events.map((event) => event.insert_id)).size).toBe(events.length);
    const pairs = events.map((event) => `${event.event_type} on ${event.screen_name}`);
    expect(pairs.filter((pair, index) => pairs.indexOf(pair) !== index)).toEqual([
      'click on checkout_v3_tr',
      'checkout_v3_tr__click on checkout_v3_tr',
    ]);

    // The whole story, nothing more.
    expect(byScreen(events)).toEqual(STORY);

    // The funnel's milestones: the purchase went through, so no screen close and no failure.
    const funnel: ReadonlySet<string> = new Set(FUNNEL_EVENTS);
    expect(
      events
        .filter((event) => funnel.has(event.event_type) && event.event_type !== 'session_start')
        .map((event) => [event.event_type, event.screen_name]),
    ).toEqual(MILESTONES);
    const types = events.map((event) => event.event_type);
    expect(types).not.toContain('subs_purchase_screen_close');
    expect(types).not.toContain('subs_purchase_failed');

    // Each screen's load once per visit, in the order walked, its three events together.
    expect(
      events.filter((event) => event.event_type === 'screen__load').map((e) => e.screen_name),
    ).toEqual(WALKED);
    for (const screen of WALKED) {
      const loads = ['load', 'screen__load', `${screen}__load`];
      const at = events.findIndex((e) => e.event_type === 'load' && e.screen_name === screen);
      expect(
        events.slice(at, at + 3).map((e) => [e.event_type, e.screen_name]),
        screen,
      ).toEqual(loads.map((name) => [name, screen]));
      expect(new Set(events.slice(at, at + 3).map((e) => e.time)).size, screen).toBe(1);
    }

    // One session, started by the first event; anonymous until the lead, the user from then on.
    expect(types.filter((type) => type === 'session_start')).toHaveLength(1);
    expect(events[0]!.event_type).toBe('session_start');
    expect(new Set(events.map((event) => event.session_id))).toEqual(new Set([events[0]!.time]));
    const lead = types.indexOf('lead');
    expect(events.slice(0, lead).map((event) => event.user_id)).toEqual(Array(lead).fill(null));
    expect(events.slice(lead).map((event) => event.user_id)).toEqual(
      Array(events.length - lead).fill(userId),
    );

    // Every event says where it happened.
    for (const event of events) {
      expect(event.event_properties, `${event.event_type} on ${event.screen_name}`).toMatchObject({
        screen_name: event.screen_name,
        variant: 'default',
        flow: 'default',
        config_version: expect.any(String),
      });
    }
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
