// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PurchaseTrackingPayload } from '../../../islands/payments/purchase-tracking';
import type { PageState } from '../../../islands/protocol';
import { type CollectedEvent, EventBatch } from '../../../shared/analytics/batch';
import { names } from './fakes';

/**
 * The tracker in a page (happy-dom): what every page emits, the clicks heard before the tracker
 * loaded, the hand-over from a page left too early, the purchase hand-off and the beacon on
 * leaving. Each test is a fresh page: new modules, the same storage when it is "the next page".
 */

const VISITOR = '5f0c6a8e-3b1d-4c2a-9e7f-1a2b3c4d5e6f';

function pageState(
  screen: string,
  collector: string | null = '/e',
  next: string | null = null,
): PageState {
  return {
    screen,
    next,
    flow: 'lp11ch8',
    variant: 'lp11',
    configVersion: '3',
    route: 'default',
    source: 'direct',
    inApp: null,
    analytics: {
      visitorId: VISITOR,
      production: false,
      collector,
      tracking: {
        appsflyer_id: null,
        google_tracking_id: null,
        google_client_id: null,
        user_data: {
          uuid: VISITOR,
          fbc: null,
          fbp: 'fb.1.1700000000000.987',
          fb_click_id: null,
          ttp: null,
          tt_click_id: null,
          source_url: 'https%3A%2F%2Fapp.example',
          google_click_id: 'g-1',
        },
      },
      consent: 'not_required',
      pixels: { meta: null, tiktok: null, googleAds: null, appsflyer: null, clarity: null },
    },
  };
}

const beacons: CollectedEvent[][] = [];
const listeners: [EventTarget, string, EventListenerOrEventListenerObject][] = [];

/** Records the listeners a page adds, so the next test's page does not hear them. */
function recordListeners(target: Window | Document) {
  const add = target.addEventListener.bind(target);
  vi.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
    if (listener) listeners.push([target, type, listener]);
    add(type, listener, options);
  });
}

/** A fresh document's modules (the tracker, emit, the stores) over the storage as it is. */
async function openPage() {
  vi.resetModules();
  return {
    tracker: await import('../../../islands/analytics/tracker'),
    emit: await import('../../../islands/analytics/emit'),
    start: await import('../../../islands/analytics/start'),
    events: await import('../../../islands/stores/events'),
  };
}

/** The page never gets an idle moment: its tracker does not load by itself. */
function neverIdle(): ReturnType<typeof vi.fn> {
  const requestIdleCallback = vi.fn();
  Object.defineProperty(window, 'requestIdleCallback', {
    configurable: true,
    value: requestIdleCallback,
  });
  return requestIdleCallback;
}

function removeListeners(): void {
  for (const [target, type, listener] of listeners.splice(0)) {
    target.removeEventListener(type, listener, { capture: true });
    target.removeEventListener(type, listener);
  }
}

/** Boot's part (start.ts), then the tracker at once, as if the page had become idle. */
function showScreen(page: Awaited<ReturnType<typeof openPage>>, state: PageState): void {
  neverIdle();
  page.start.startAnalytics(state);
  page.tracker.startTracker(state);
}

async function leave(): Promise<CollectedEvent[]> {
  window.dispatchEvent(new Event('pagehide'));
  await vi.waitFor(() => expect(navigator.sendBeacon).toHaveBeenCalled());
  // Blob bodies are read asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 0));
  return beacons.flat();
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  beacons.length = 0;
  recordListeners(window);
  recordListeners(document);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 200 })),
  );
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: vi.fn((_url: string, body: Blob) => {
      void body.text().then((text) => beacons.push((JSON.parse(text) as EventBatch).events));
      return true;
    }),
  });
});

afterEach(() => {
  removeListeners();
  Reflect.deleteProperty(window, 'requestIdleCallback');
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('every page', () => {
  it('emits load, screen__load and its own load once each, sent by beacon when left', async () => {
    const page = await openPage();
    showScreen(page, pageState('one_pager'));
    page.tracker.startTracker(pageState('one_pager')); // a second start is a no-op
    const sent = await leave();
    expect(names(sent)).toEqual(['session_start', 'load', 'screen__load', 'one_pager__load']);
    for (const event of sent) {
      expect(event.device_id).toBe(VISITOR);
      expect(event.event_properties).toMatchObject({
        screen_name: 'one_pager',
        variant: 'lp11',
        flow: 'lp11ch8',
        config_version: '3',
        uuid: VISITOR,
        fbp: 'fb.1.1700000000000.987',
        google_click_id: 'g-1',
      });
      expect(event.event_properties).not.toHaveProperty('fbc');
    }
    expect(navigator.sendBeacon).toHaveBeenCalledWith(
      expect.stringMatching(/^\/e\?b=[0-9a-f]{12}$/),
      expect.any(Blob),
    );
  });

  it('the next page forgets what the collector acknowledged in gf_ack, and takes the cookie away', async () => {
    const first = await openPage();
    showScreen(first, pageState('one_pager'));
    await leave();
    const url = vi.mocked(navigator.sendBeacon).mock.calls[0]![0];
    const batch = new URL(url, location.href).searchParams.get('b');
    expect(batch).toMatch(/^[0-9a-f]{12}$/);
    // The beacon's events wait in the queue for the acknowledgement.
    expect(localStorage.getItem('gf:analytics:queue')).toContain('one_pager__load');
    // biome-ignore lint/suspicious/noDocumentCookie: what the collector's answer to the beacon set (worker/collector/batch-acknowledgement.ts)
    document.cookie = `gf_ack=${batch}; Path=/`;

    removeListeners();
    beacons.length = 0;
    vi.mocked(navigator.sendBeacon).mockClear();
    const next = await openPage();
    showScreen(next, pageState('searching'));
    expect(localStorage.getItem('gf:analytics:queue')).not.toContain('one_pager__load');
    // Deleted (happy-dom keeps a deleted cookie's empty name; a browser drops it).
    expect(document.cookie).not.toMatch(/gf_ack=\w/);
    expect(names(await leave())).toEqual(['load', 'screen__load', 'searching__load']);
  });

  it('with analytics switched off sends nothing', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const page = await openPage();
    showScreen(page, pageState('one_pager', null));
    window.dispatchEvent(new Event('pagehide'));
    expect(navigator.sendBeacon).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
    expect(info).toHaveBeenCalledWith(expect.stringContaining('No request sent'));
  });

  it('left offline sends no beacon the browser would lose: the next page sends the events', async () => {
    const page = await openPage();
    showScreen(page, pageState('one_pager'));
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('pagehide'));
    expect(navigator.sendBeacon).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();

    online.mockRestore();
    removeListeners();
    const next = await openPage();
    showScreen(next, pageState('searching'));
    const sent = await leave();
    expect(
      sent.map((event) => `${event.event_type} on ${event.event_properties.screen_name}`),
    ).toEqual([
      'session_start on one_pager',
      'load on one_pager',
      'screen__load on one_pager',
      'one_pager__load on one_pager',
      'load on searching',
      'screen__load on searching',
      'searching__load on searching',
    ]);
  });
});

describe('a collector that answers 503 (SPEC.md §9)', () => {
  it('keeps the events while it is down; once it is back each arrives exactly once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let status = 503;
      const requests: { status: number; events: CollectedEvent[] }[] = [];
      vi.mocked(fetch).mockImplementation(async (_url, init) => {
        // Every body is a batch the collector's own schema takes.
        const events = EventBatch.parse(JSON.parse(String(init?.body))).events;
        requests.push({ status, events });
        return new Response('{}', { status });
      });
      const queued = () =>
        (
          JSON.parse(localStorage.getItem('gf:analytics:queue') ?? '{"entries":[]}') as {
            entries: unknown[];
          }
        ).entries.length;
      const page = await openPage();
      document.body.innerHTML =
        '<form><button id="continue-button" type="button">Continue</button></form>';
      showScreen(page, pageState('one_pager'));
      // Ten presses of Continue: 3 events each, past the threshold of 30.
      for (let press = 0; press < 10; press++) document.querySelector('button')!.click();
      await vi.advanceTimersByTimeAsync(0);
      // The threshold's upload refused, then its first retry after the 1 s backoff.
      expect(requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(requests.map((request) => request.status)).toEqual([503, 503]);
      // session_start, 3 load events, 10 x (click, one_pager__click, button__continue)
      expect(queued()).toBe(34);

      status = 200;
      await vi.advanceTimersByTimeAsync(2_000);
      expect(requests.map((request) => request.status)).toEqual([503, 503, 200]);
      const delivered = requests.filter((request) => request.status === 200);
      const events = delivered.flatMap((request) => request.events);
      expect(events).toHaveLength(34);
      expect(new Set(events.map((event) => event.insert_id)).size).toBe(34);
      expect(names(events).filter((name) => name === 'button__continue')).toHaveLength(10);
      expect(queued()).toBe(0);
      // Nothing more goes: no event twice.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(requests).toHaveLength(3);
      expect(navigator.sendBeacon).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('starting', () => {
  it('loads the tracker only once the page is interactive and idle, then emits the load events', async () => {
    const page = await openPage();
    const requestIdleCallback = neverIdle();
    page.start.startAnalytics(pageState('one_pager', '/e', '/signup'));
    expect(requestIdleCallback).not.toHaveBeenCalled();
    page.start.trackerMayLoad(); // boot's markInteractive: every island has hydrated
    page.start.trackerMayLoad();
    expect(requestIdleCallback).toHaveBeenCalledOnce();
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 2000 });
    expect(localStorage.getItem('gf:analytics:queue')).toBeNull();
    const [idle] = requestIdleCallback.mock.calls[0] as [() => void];
    idle();
    await vi.waitFor(() =>
      expect(localStorage.getItem('gf:analytics:queue')).toContain('one_pager__load'),
    );
  });
});

describe('the heatmap', () => {
  const LOADER = 'https://www.clarity.ms/tag/abcde12345';

  /**
   * Boot's start, the page interactive, then each idle moment it asks for, until its analytics
   * start is done; resolves with every script the page added meanwhile (happy-dom loads none).
   */
  async function startOnIdle(state: PageState): Promise<string[]> {
    const added: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const node of records.flatMap((record) => [...record.addedNodes])) {
        if (node instanceof HTMLScriptElement) added.push(node.src);
      }
    });
    observer.observe(document, { childList: true, subtree: true });
    const page = await openPage();
    const requestIdleCallback = neverIdle();
    page.start.startAnalytics(state);
    page.start.trackerMayLoad();
    const ran = new Set<unknown>();
    await vi.waitFor(async () => {
      for (const [idle] of requestIdleCallback.mock.calls as [() => void][]) {
        if (!ran.has(idle)) {
          ran.add(idle);
          idle();
        }
      }
      await Promise.resolve();
      expect(document.documentElement.dataset.analytics).toBe('started');
    });
    // The observer's last records.
    await new Promise((resolve) => setTimeout(resolve, 0));
    observer.disconnect();
    delete document.documentElement.dataset.analytics;
    return added;
  }

  afterEach(() => {
    Reflect.deleteProperty(window, 'clarity');
  });

  it('is never asked for on a page the worker gave none (no project id, a Decline, card fields), consent given or not', async () => {
    // What the worker leaves out in each of those cases: test/worker/pixels/heatmap.test.ts.
    for (const consent of ['granted', 'not_required'] as const) {
      const state = pageState('signup');
      state.analytics.consent = consent;
      expect(await startOnIdle(state), consent).toEqual([]);
      expect('clarity' in window).toBe(false);
      removeListeners();
    }
  });

  it('is asked for once the page is idle where the worker gave one', async () => {
    const state = pageState('signup');
    state.analytics.heatmap = { clarity: 'abcde12345', tags: [['screen_name', 'signup']] };
    // happy-dom never fetches a script: here it reports the loader as loaded, and says so on
    // the console.
    const { settings } = (window as unknown as { happyDOM: { settings: Record<string, unknown> } })
      .happyDOM;
    settings.handleDisabledFileLoadingAsSuccess = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await startOnIdle(state)).toEqual([LOADER]);
    } finally {
      settings.handleDisabledFileLoadingAsSuccess = false;
    }
  });
});

describe('clicks', () => {
  it('heard before the tracker loaded are not lost, and fan out on the screen', async () => {
    const page = await openPage();
    neverIdle();
    document.body.innerHTML =
      '<form><button id="continue-button" type="button">Continue</button></form>';
    page.start.startAnalytics(pageState('searching'));
    document.querySelector('button')!.click();
    page.tracker.startTracker(pageState('searching'));
    const sent = await leave();
    const click = sent.find((event) => event.event_type === 'button__continue');
    expect(names(sent).slice(-3)).toEqual(['click', 'searching__click', 'button__continue']);
    expect(click!.event_properties).toMatchObject({
      screen_name: 'searching',
      element_id: 'continue-button',
      element_role: 'button',
      element_text: 'Continue',
    });
  });

  it('on a page left before its tracker loaded are sent by the next page, as that first page’s', async () => {
    const first = await openPage();
    neverIdle();
    document.body.innerHTML = '<a href="/signup?gclid=g-1">Sign up</a>';
    first.start.startAnalytics(pageState('one_pager'));
    document.querySelector('a')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    window.dispatchEvent(new Event('pagehide'));
    expect(navigator.sendBeacon).not.toHaveBeenCalled();
    removeListeners();

    const next = await openPage();
    showScreen(next, pageState('signup'));
    const sent = await leave();
    const redirect = sent.find((event) => event.event_type === 'link__redirect')!;
    expect(redirect.event_properties).toMatchObject({
      screen_name: 'one_pager',
      link_path: '/signup',
      element_text: 'Sign up',
    });
    // The first page's load too: it was reported at boot, not when a tracker loaded.
    const on = (screen: string) =>
      names(sent.filter((event) => event.event_properties.screen_name === screen));
    expect(on('one_pager')).toEqual([
      'session_start',
      'load',
      'screen__load',
      'one_pager__load',
      'click',
      'one_pager__click',
      'link__redirect',
    ]);
    expect(on('signup')).toEqual(['load', 'screen__load', 'signup__load']);
    expect(localStorage.getItem(next.emit.EARLY_EVENTS_KEY)).toBeNull();
  });

  it('on a page with analytics off (a preview) are not handed to the next page', async () => {
    const first = await openPage();
    neverIdle();
    document.body.innerHTML = '<a href="/signup">Sign up</a>';
    first.start.startAnalytics(pageState('one_pager', null));
    document.querySelector('a')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    window.dispatchEvent(new Event('pagehide'));
    expect(localStorage.getItem(first.emit.EARLY_EVENTS_KEY)).toBeNull();
    removeListeners();

    const next = await openPage();
    showScreen(next, pageState('signup'));
    const sent = await leave();
    expect(new Set(sent.map((event) => event.event_properties.screen_name))).toEqual(
      new Set(['signup']),
    );
  });
});

describe('leaving a checkout or paywall', () => {
  it('without a purchase reports subs_purchase_screen_close, with the paywall CTA as button__scroll', async () => {
    const page = await openPage();
    document.body.innerHTML =
      '<button id="continue-button" type="button" data-event="button__scroll">Get my plan</button>';
    showScreen(page, pageState('paycheck1_pr5_h_win'));
    document.querySelector('button')!.click();
    const sent = await leave();
    expect(names(sent).slice(-4)).toEqual([
      'paycheck1_pr5_h_win__click',
      'button__continue',
      'button__scroll',
      'subs_purchase_screen_close',
    ]);
  });

  it('after the purchase succeeded reports no close', async () => {
    localStorage.setItem('gf:checkout:isSuccess', 'true');
    const page = await openPage();
    showScreen(page, pageState('checkout_v3_tr'));
    expect(names(await leave())).not.toContain('subs_purchase_screen_close');
  });

  it('is reported by the next page when the tracker had not loaded yet', async () => {
    const first = await openPage();
    neverIdle();
    first.start.startAnalytics(pageState('checkout_v3_tr'));
    window.dispatchEvent(new Event('pagehide'));
    removeListeners();
    const next = await openPage();
    showScreen(next, pageState('payment_declined'));
    const closes = (await leave()).filter(
      (event) => event.event_type === 'subs_purchase_screen_close',
    );
    expect(closes.map((event) => event.event_properties.screen_name)).toEqual(['checkout_v3_tr']);
  });

  it('a screen that is not a paywall reports no close', async () => {
    const page = await openPage();
    showScreen(page, pageState('upsell_an_private'));
    expect(names(await leave())).not.toContain('subs_purchase_screen_close');
  });
});

const purchase: PurchaseTrackingPayload = {
  price: 6.99,
  currency: 'USD',
  plan: 'monthly_7d_intro_usd',
  sub_id: 'sub_1',
  event_id: 'evt_1',
  gclid: 'g-1',
  pixelName: 'Purchase_test',
};

describe('the purchase hand-off (islands/stores/events.ts)', () => {
  it('turns a queued purchase into subs_purchase_completed on the next page, once', async () => {
    const checkout = await openPage();
    checkout.events.queuePurchase(purchase);
    checkout.events.$events.setKey('analyticsData', { user_id: 'ext-42' });

    const upsell = await openPage();
    const heard: CollectedEvent[] = [];
    showScreen(upsell, pageState('upsell_an_private'));
    upsell.tracker.subscribe((event) => heard.push(event), { replay: true });
    const sent = await leave();
    const completed = sent.filter((event) => event.event_type === 'subs_purchase_completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.event_properties).toMatchObject({
      ...purchase,
      screen_name: 'upsell_an_private',
    });
    expect(completed[0]!.user_id).toBe('ext-42');
    // A pixel that subscribed after the drain still hears the purchase.
    expect(names(heard)).toContain('subs_purchase_completed');

    removeListeners();
    beacons.length = 0;
    const success = await openPage();
    showScreen(success, pageState('success'));
    expect(names(await leave())).not.toContain('subs_purchase_completed');
  });

  it('drains a purchase made on this page at once (the page moves on right after)', async () => {
    const page = await openPage();
    showScreen(page, pageState('upsell_an_private'));
    page.events.queuePurchase({ ...purchase, plan: 'upsell_monthly_999_usd', sub_id: 'sub_2' });
    expect(page.events.pendingPurchases()).toEqual([]);
    const sent = await leave();
    expect(names(sent)).toContain('upsell_purchase_completed');
  });
});

/** Until the clock has moved on, so a later page's events have a later time. */
async function tick(): Promise<void> {
  const now = Date.now();
  await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(now), { interval: 1 });
}

/** Boot's part only, then the page is left before its tracker loaded. */
async function leaveEarly(
  state: PageState,
  during?: (page: Awaited<ReturnType<typeof openPage>>) => void,
) {
  const page = await openPage();
  neverIdle();
  page.start.startAnalytics(state);
  during?.(page);
  window.dispatchEvent(new Event('pagehide'));
  expect(navigator.sendBeacon).not.toHaveBeenCalled();
  removeListeners();
  await tick();
  return page;
}

describe('a visitor moving on before the tracker loaded', () => {
  it('a purchase keeps the time and screen (and variant) it was made on, however late it is recorded', async () => {
    let madeAt = 0;
    await leaveEarly(
      { ...pageState('checkout_v3_tr', '/e', '/success'), variant: 'lp12' },
      (page) => {
        // The clock stands still while the purchase is queued, so its time is known exactly
        // (a busy machine can take milliseconds between two reads of it).
        madeAt = Date.now();
        const clock = vi.spyOn(Date, 'now').mockReturnValue(madeAt);
        page.events.queuePurchase(purchase);
        clock.mockRestore();
      },
    );
    const success = await openPage();
    showScreen(success, pageState('success'));
    const sent = await leave();
    const completed = sent.find((event) => event.event_type === 'subs_purchase_completed')!;
    expect(completed.time).toBe(madeAt);
    expect(completed.event_properties).toMatchObject({
      ...purchase,
      screen_name: 'checkout_v3_tr',
      variant: 'lp12',
      flow: 'lp11ch8',
    });
    const successLoad = sent.find((event) => event.event_type === 'success__load')!;
    expect(completed.time).toBeLessThan(successLoad.time);
    // In the order it happened: the purchase before the screen that came after it.
    const byTime = [...sent].sort((a, b) => a.time - b.time).map((event) => event.event_type);
    expect(byTime.indexOf('subs_purchase_completed')).toBeLessThan(byTime.indexOf('success__load'));
  });

  it('a purchase queued before its time and screen were kept is recorded now, on this page', async () => {
    const checkout = await openPage();
    checkout.events.$events.setKey('eventsData', { pendingPurchases: [purchase] });
    const success = await openPage();
    const before = Date.now();
    showScreen(success, pageState('success'));
    const sent = await leave();
    const completed = sent.find((event) => event.event_type === 'subs_purchase_completed')!;
    expect(completed.time).toBeGreaterThanOrEqual(before);
    expect(completed.event_properties).toMatchObject({ ...purchase, screen_name: 'success' });
  });

  it('events keep the user id of when they happened: none before the lead', async () => {
    await leaveEarly(pageState('signup', '/e', '/checkout_v3_tr'), (page) => {
      page.emit.emit('button__continue');
      // What sign-up does (islands/signup/sign-up.ts): the analytics user id, then the lead.
      page.events.$events.setKey('analyticsData', { user_id: 'ext-42' });
      page.emit.emit('lead');
    });
    const next = await openPage();
    showScreen(next, pageState('checkout_v3_tr'));
    const sent = await leave();
    const userOf = (name: string) => sent.find((event) => event.event_type === name)!.user_id;
    expect(userOf('session_start')).toBeNull();
    expect(userOf('signup__load')).toBeNull();
    expect(userOf('button__continue')).toBeNull();
    expect(userOf('lead')).toBe('ext-42');
    expect(userOf('checkout_v3_tr__load')).toBe('ext-42');
  });

  it('the last screen’s events are sent by the next visit, in another tab, once', async () => {
    await leaveEarly(pageState('success'));
    sessionStorage.clear(); // the tab was closed
    const later = await openPage();
    showScreen(later, pageState('one_pager'));
    const sent = await leave();
    const onSuccess = sent.filter((event) => event.event_properties.screen_name === 'success');
    expect(names(onSuccess)).toEqual(['session_start', 'load', 'screen__load', 'success__load']);

    removeListeners();
    beacons.length = 0;
    const otherTab = await openPage();
    showScreen(otherTab, pageState('one_pager'));
    const again = await leave();
    expect(again.filter((event) => event.event_properties.screen_name === 'success')).toEqual([]);
  });

  it('handed-over events older than the collector takes (7 days) are dropped', async () => {
    const now = Date.now();
    const early = (time: number) => ({ name: 'lead', time, userId: null });
    localStorage.setItem(
      'gf:analytics:early',
      JSON.stringify([
        {
          page: pageState('signup'),
          path: '/signup',
          events: [early(now - 8 * 86_400_000), early(now - 60_000)],
        },
      ]),
    );
    const page = await openPage();
    showScreen(page, pageState('one_pager'));
    const leads = (await leave()).filter((event) => event.event_type === 'lead');
    expect(leads.map((event) => event.time)).toEqual([now - 60_000]);
  });

  it('the last screen and success load the tracker once interactive, without waiting for idle', async () => {
    for (const state of [pageState('success', '/e', '/next'), pageState('upsell_an_private')]) {
      localStorage.clear();
      const page = await openPage();
      const requestIdleCallback = neverIdle();
      page.start.startAnalytics(state);
      page.start.trackerMayLoad();
      await vi.waitFor(() =>
        expect(localStorage.getItem('gf:analytics:queue')).toContain(`${state.screen}__load`),
      );
      expect(requestIdleCallback).not.toHaveBeenCalled();
      removeListeners();
    }
  });
});

describe('an account the worker made from the signup form posted before hydration', () => {
  const account = {
    email: 'nojs@example.com',
    userId: 'user-9',
    deeplinkToken: 'login-grant-1',
    screen: 'signup' as const,
    path: '/signup',
  };

  it('is a lead on the signup screen, by its user, before the next screen’s load', async () => {
    const page = await openPage();
    const { adoptAccount } = await import('../../../islands/signup/adopt-account');
    const state = { ...pageState('checkout_v3_tr', '/e', '/upsell_an_private'), account };
    adoptAccount(state, account);
    // Handed on as the signup page's event, without the login grant.
    const handedOn = localStorage.getItem(page.emit.EARLY_EVENTS_KEY) ?? '';
    expect(handedOn).toContain('"lead"');
    expect(handedOn).not.toContain('login-grant-1');
    showScreen(page, state);
    const sent = await leave();
    expect(names(sent).filter((name) => name === 'lead')).toHaveLength(1);
    const lead = sent.find((event) => event.event_type === 'lead')!;
    const load = sent.find((event) => event.event_type === 'checkout_v3_tr__load')!;
    expect(lead.user_id).toBe('user-9');
    expect(lead.event_properties).toMatchObject({ screen_name: 'signup', variant: 'lp11' });
    expect(lead.time).toBeLessThanOrEqual(load.time);
    // The screen it arrived on is the new user's too.
    expect(load.user_id).toBe('user-9');
    expect(load.event_properties).toMatchObject({ screen_name: 'checkout_v3_tr' });
    expect(JSON.stringify(sent)).not.toContain('login-grant-1');
  });

  it('with analytics switched off (a preview) reports no lead', async () => {
    const page = await openPage();
    const { adoptAccount } = await import('../../../islands/signup/adopt-account');
    adoptAccount({ ...pageState('checkout_v3_tr', null), account }, account);
    expect(localStorage.getItem(page.emit.EARLY_EVENTS_KEY)).toBeNull();
    expect(page.events.analyticsUserId()).toBe('user-9');
  });
});
