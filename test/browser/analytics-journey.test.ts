import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_KEY } from '../../islands/analytics/queue';
import type { CollectedEvent } from '../../shared/analytics/batch';
import { FUNNEL_EVENTS } from '../../shared/analytics/catalogue';
import { type CollectorTap, startCollectorTap } from './collector-tap';
import { type StoredVisitorEvent, storedEvents, visitorUuid } from './event-store';
import { type BrowserSession, startBrowserSession, watchPage } from './harness';
import { walkToSuccess } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * One visitor walks the default flow from `/` to success in Chromium, buying the plan and the
 * upsell, and reads every screen for a while: longer than the tracker's upload period and
 * holds. The beacon the landing sends as it is left is lost on the way. The worker's own
 * collector (`POST /e`, its queue, the local store in EVENTS_DB) ends up with the funnel's
 * story: each event once, in the order it happened, each sent to it once.
 *
 * The pages run on Playwright's clock, which the test moves on through each stay (the timers
 * due meanwhile fire, as they would), so the suite does not wait. Every `POST /e` the browser
 * makes, by fetch or by beacon, is read on its way to the worker (collector-tap.ts), which cuts
 * the landing's beacon as a network that drops one does.
 */

/**
 * The screen each path of the walk shows (the events' screen_name), and how long the visitor
 * stays on it once its tracker runs: past the wait for a beacon's acknowledgement (ACK_WAIT_MS,
 * 10 s) everywhere, and in the middle of the walk past the upload period (30 s), the request
 * time-out (20 s) and the hold of a request under way (SEND_LEASE_MS, 60 s). The last screen is
 * left within the upload period: what it holds goes by beacon as the page goes.
 */
const STAYS: Record<string, [screen: string, ms: number]> = {
  '/': ['one_pager', 15_000],
  '/searching': ['searching', 45_000],
  '/signup': ['signup', 90_000],
  '/checkout_v3_tr': ['checkout_v3_tr', 15_000],
  '/upsell_an_private': ['upsell_an_private', 45_000],
  '/success': ['success', 15_000],
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

type Stored = StoredVisitorEvent;

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

/** The insert ids sent to the worker more than once (by fetch or beacon, through the tap). */
function sentAgain(sent: CollectedEvent[]): string[] {
  const before = new Set<string>();
  const again: string[] = [];
  for (const event of sent) {
    if (before.has(event.insert_id)) {
      again.push(`${event.event_type} on ${event.event_properties.screen_name}`);
    }
    before.add(event.insert_id);
  }
  return again;
}

const idsOf = (events: { insert_id: string }[]) => [...new Set(events.map((e) => e.insert_id))];

describe('a purchase journey in the local event store (SPEC.md §4 Analytics events)', () => {
  // slow: a whole journey from / to success, the plan and the upsell bought, the visitor
  // outstaying the upload leases on each screen, each event read back
  it('a visitor who reads every screen, buys the plan and the upsell and loses a beacon: each event stored once, in order, sent once', async () => {
    // A context of its own: the pool's are reused by later visitors, and a clock outlives its
    // visitor.
    const context = await session.browser.newContext({ baseURL: tap.url.href });
    const page = await context.newPage();
    const { problems } = watchPage(page);
    const { sent, dropped } = tap;
    // From now on the visitor's clock runs with real time, and jumps where the test says.
    await context.clock.install();

    let subscription: string | null = null;
    const dwell = async (onPage: Page, path: string) => {
      const [screen, stay] = STAYS[path] ?? [path, 0];
      await onPage.waitForURL((url) => url.pathname === path, { timeout: PATIENCE_MS });
      if (path === '/searching') {
        // The landing's beacon, with everything it had not sent, was cut on the way (Chromium
        // tries a cut one again a few times: the tap cuts those too, by its batch id).
        await expect
          .poll(() => dropped.some((event) => event.event_type === 'button__continue'), {
            timeout: PATIENCE_MS,
            interval: 50,
          })
          .toBe(true);
        tap.dropping = false;
      }
      await interactive(onPage);
      await expect
        .poll(() => trackerTookLoad(onPage, screen, sent), { timeout: PATIENCE_MS, interval: 100 })
        .toBe(true);
      if (path === '/upsell_an_private') {
        subscription = JSON.parse(
          (await onPage.evaluate(() => localStorage.getItem('gf:checkout:id'))) ?? 'null',
        ) as string | null;
      }
      for (let stayed = 0; stayed < stay; stayed += STEP_MS) {
        await onPage.clock.runFor(STEP_MS);
        await expect
          .poll(() => requestUnderWay(onPage), { timeout: PATIENCE_MS, interval: 50 })
          .toBe(false);
      }
      // The landing is left by its Continue: the beacon it sends then is lost.
      if (path === '/') tap.dropping = true;
    };
    const userId = await walkToSuccess(page, { emailLabel: 'journey', ready: dwell });
    // Leaving the last screen sends what it still holds, by beacon.
    await page.goto('about:blank');
    const device = await visitorUuid(context);

    // Everything sent has been answered and stored, the last screen's events included. A
    // beacon's events sent again (its acknowledgement late) are answered as duplicates:
    // accepted twice, an event would leave this short.
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
    const events = await storedEvents(session, device, 'happened');

    // The lost beacon's events were sent again by the next page and stored; each insert_id
    // reached the worker once (the lost tries never did), and every event sent was kept: an
    // acknowledged beacon was never sent again however long the visitor stayed.
    expect(dropped.map((event) => event.event_properties.screen_name)).toEqual(
      dropped.map(() => 'one_pager'),
    );
    expect(idsOf(events)).toEqual(expect.arrayContaining(idsOf(dropped)));
    expect(sentAgain(sent)).toEqual([]);
    expect({ sent: sent.length, kept: collectorTotals().accepted }).toEqual({
      sent: events.length,
      kept: events.length,
    });
    expect(new Set(idsOf(sent))).toEqual(new Set(idsOf(events)));
    // The tracker took the acknowledgements out of the cookie as it read them: it holds only
    // the last beacon's, which no page has read yet (about 20 bytes on the requests until then).
    const ack = (await context.cookies()).find((cookie) => cookie.name === 'gf_ack');
    expect(ack).toMatchObject({ value: expect.stringMatching(/^[0-9a-f]{12}$/), httpOnly: false });

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
        uuid: device,
      });
    }

    // The purchase with its SPEC.md §3 payload, and the same purchase verified by the worker
    // from the portal's answer (the revenue), under the same event id.
    const purchase = events.find((e) => e.event_type === 'subs_purchase_completed')!;
    expect(purchase.user_id).toBe(userId);
    expect(purchase.event_properties).toMatchObject({
      plan: 'monthly_7d_intro_usd',
      sub_id: subscription,
      currency: 'USD',
      price: expect.any(Number),
      pixelName: 'Purchase_test',
    });
    expect(subscription).toEqual(expect.any(String));
    await expect
      .poll(
        async () =>
          (await storedEvents(session, device, 'arrival', 'server')).some(
            (event) => event.event_type === 'subs_purchase_completed',
          ),
        { timeout: PATIENCE_MS },
      )
      .toBe(true);
    const verified = (await storedEvents(session, device, 'arrival', 'server')).find(
      (event) => event.event_type === 'subs_purchase_completed',
    );
    expect(verified).toMatchObject({ event_type: 'subs_purchase_completed', user_id: userId });
    expect(verified?.event_properties).toMatchObject({
      source: 'server',
      plan: 'monthly_7d_intro_usd',
      sub_id: subscription,
      event_id: purchase.event_properties.event_id,
      currency: 'USD',
      price: purchase.event_properties.price,
      screen_name: 'checkout_v3_tr',
    });

    // The lost beacon is the only failure the page saw.
    expect(problems.filter((problem) => !/\/e\?b=/.test(problem))).toEqual([]);
    await context.close();
  }, 240_000);
});
