import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollectedEvent, EventBatch } from '../../shared/analytics/batch';
import { storedEvents as storedVisitorEvents, visitorUuid } from './event-store';
import { type BrowserSession, startBrowserSession } from './harness';
import { checkoutVisitor, continueAfterReceipt, payButton, typeTestCard } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * The browser tracker in Chromium against the worker's own collector (`POST /e`, its queue and
 * local event store, read back from EVENTS_DB), and, for the collector's outage, a recording
 * collector the test switches between 503 and 200. That one is a small proxy in front of the
 * built worker which answers `/e` itself: Chromium sends the beacon of a page being closed or
 * left from the browser process, past any page routing.
 */

let session: BrowserSession;
let faulty: RecordingCollector;
beforeAll(async () => {
  session = await startBrowserSession();
  faulty = await startRecordingCollector(session.worker.url);
});
afterAll(async () => {
  await faulty?.stop();
  await session?.stop();
});

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

interface CollectorRequest {
  status: number;
  events: CollectedEvent[];
}

type RecordingCollector = Awaited<ReturnType<typeof startRecordingCollector>>;

/** Headers that describe one connection or one encoding, not the message. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'host',
]);

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function startRecordingCollector(worker: URL) {
  const state = {
    status: 200,
    requests: [] as CollectorRequest[],
    accepted: new Map<string, CollectedEvent>(),
    duplicates: 0,
    invalid: [] as string[],
  };

  function collect(body: string): { status: number; json: unknown } {
    const parsed = EventBatch.safeParse(JSON.parse(body || 'null'));
    if (!parsed.success) {
      state.invalid.push(parsed.error.message);
      return { status: 400, json: { error: 'invalid_batch' } };
    }
    const { events } = parsed.data;
    state.requests.push({ status: state.status, events });
    if (state.status !== 200) return { status: state.status, json: { error: 'unavailable' } };
    let accepted = 0;
    for (const event of events) {
      if (state.accepted.has(event.insert_id)) {
        state.duplicates++;
      } else {
        state.accepted.set(event.insert_id, event);
        accepted++;
      }
    }
    return { status: 200, json: { accepted, duplicates: events.length - accepted } };
  }

  async function forward(request: IncomingMessage, body: Buffer, response: ServerResponse) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !NOT_FORWARDED.has(name)) {
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
    }
    const method = request.method ?? 'GET';
    const answer = await fetch(new URL(request.url ?? '/', worker), {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(body),
      redirect: 'manual',
    });
    const out: Record<string, string | string[]> = {};
    answer.headers.forEach((value, name) => {
      if (!NOT_FORWARDED.has(name) && name !== 'set-cookie') out[name] = value;
    });
    const cookies = answer.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;
    response.writeHead(answer.status, out);
    response.end(Buffer.from(await answer.arrayBuffer()));
  }

  const server = createServer((request, response) => {
    void bodyOf(request)
      .then((body) => {
        if (request.method === 'POST' && request.url?.split('?')[0] === '/e') {
          const { status, json } = collect(body.toString('utf8'));
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(json));
          return;
        }
        return forward(request, body, response);
      })
      .catch((error: unknown) => {
        response.writeHead(502);
        response.end(String(error));
      });
  });
  await new Promise<void>((listening) => server.listen(0, listening));
  const url = new URL(`http://localhost:${(server.address() as AddressInfo).port}/`);

  return {
    url,
    state,
    /** Every event accepted, once each. */
    events: () => [...state.accepted.values()],
    named: (name: string) => [...state.accepted.values()].filter((e) => e.event_type === name),
    reset(status = 200) {
      state.status = status;
      state.requests = [];
      state.accepted.clear();
      state.duplicates = 0;
      state.invalid = [];
    },
    /** A visitor whose pages come through the collector's proxy. */
    async newVisitor() {
      const visitor = await session.newVisitor();
      // The harness refuses every origin but the worker's; the proxy's is ours.
      await visitor.context.route(
        (target) => target.origin === url.origin,
        (route) => route.continue(),
      );
      return visitor;
    },
    stop: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

/** The tracker has loaded (after the page became interactive) and queued the page's load. */
async function queuedFor(page: Page, eventName: string): Promise<void> {
  await page.waitForFunction(
    (name) => (localStorage.getItem('gf:analytics:queue') ?? '').includes(`"${name}"`),
    eventName,
  );
}

const queued = (page: Page) =>
  page.evaluate(
    () => JSON.parse(localStorage.getItem('gf:analytics:queue') ?? '{"entries":[]}').entries.length,
  );

/** Problems other than the collector's own answers, which a test sets on purpose. */
const pageProblems = (problems: string[]) => problems.filter((problem) => !/\/e\b/.test(problem));

describe('the analytics tracker in Chromium (SPEC.md §3, §4, §7, §9)', () => {
  it('a landing load reaches the collector as load, screen__load and one_pager__load, once each', async () => {
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

    await page.goto('about:blank');
    const device = await visitorUuid(context);
    await expect.poll(async () => (await storedEvents(device)).length, STORED).toBe(4);
    const events = await storedEvents(device);
    expect(events.map((event) => event.event_type).sort()).toEqual(
      ['load', 'one_pager__load', 'screen__load', 'session_start'].sort(),
    );
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
    // One beacon, every event new to the collector.
    expect(collectorLines()).toMatchObject([{ status: 200, accepted: 4, duplicates: 0 }]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a Continue click right before the tab closes still reaches the collector, by beacon', async () => {
    const { context, page, problems } = await session.newVisitor();
    await page.goto('/?skip_split=true');
    await queuedFor(page, 'one_pager__load');
    // Locate with no number: the field says why and the page stays; then the tab is closed.
    await page.locator('#continue-button').click();
    await page.close({ runBeforeUnload: true });
    const device = await visitorUuid(context);
    await expect.poll(() => storedCounts(device), STORED).toMatchObject({ button__continue: 1 });
    expect(await storedCounts(device)).toEqual({
      session_start: 1,
      load: 1,
      screen__load: 1,
      one_pager__load: 1,
      click: 1,
      one_pager__click: 1,
      button__continue: 1,
    });
    const click = (await storedEvents(device)).find((e) => e.event_type === 'button__continue');
    expect(click!.event_properties).toMatchObject({
      screen_name: 'one_pager',
      element_id: 'continue-button',
      element_role: 'button',
      element_tag: 'button',
    });
    expect(pageProblems(problems)).toEqual([]);
    await context.close();
  });

  it('a Continue click that moves on at once arrives as the landing’s, and the next screen sends its own', async () => {
    const { context, page, problems } = await session.newVisitor();
    await page.goto('/?skip_split=true');
    await interactive(page);
    // At once: the landing's tracker may not have loaded yet.
    await page.locator('input[type="tel"]').fill('415 555 2671');
    await page.locator('#continue-button').click();
    await page.waitForURL((url) => url.pathname === '/searching');
    // The search has started (SearchProgress says so once it has hydrated).
    await queuedFor(page, 'processing_started');
    await page.goto('about:blank');
    const device = await visitorUuid(context);
    await expect.poll(() => storedCounts(device), STORED).toMatchObject({ searching__load: 1 });
    const events = await storedEvents(device);
    const screenOf = (name: string) =>
      events.filter((e) => e.event_type === name).map((e) => e.event_properties.screen_name);
    expect(screenOf('button__continue')).toEqual(['one_pager']);
    expect(screenOf('onboarding_start')).toEqual(['one_pager']);
    expect(screenOf('load')).toEqual(['one_pager', 'searching']);
    expect(screenOf('processing_started')).toEqual(['searching']);
    expect(screenOf('session_start')).toHaveLength(1);
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
    expect(pageProblems(problems)).toEqual([]);
    await context.close();
  });

  it('a 4242 purchase reaches the collector once as subs_purchase_completed with its payload, the user id from sign-up', async () => {
    const { context, page, problems, userId } = await checkoutVisitor(session, 'tracked');
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    const subscription = JSON.parse(
      (await page.evaluate(() => localStorage.getItem('gf:checkout:id'))) ?? 'null',
    ) as string;
    await queuedFor(page, 'upsell_an_private__load');
    await page.goto('about:blank');
    const device = await visitorUuid(context);
    // The events reach the store in the queue's batches, the upsell's load maybe in a later one
    // than the purchase: wait for all of them, then read the store once.
    await expect
      .poll(() => storedCounts(device), STORED)
      .toMatchObject({
        lead: 1,
        checkout_v3_tr__load: 1,
        checkout_screen_load: 1,
        subs_purchase_show: 1,
        subs_purchase_started: 1,
        subs_purchase_completed: 1,
        upsell_an_private__load: 1,
      });
    const counts = await storedCounts(device);
    expect(counts.subs_purchase_failed).toBeUndefined();
    const events = await storedEvents(device);
    const purchase = events.find((e) => e.event_type === 'subs_purchase_completed')!;
    expect(purchase.user_id).toBe(userId);
    expect(purchase.event_properties).toMatchObject({
      plan: 'monthly_7d_intro_usd',
      sub_id: subscription,
      currency: 'USD',
      price: expect.any(Number),
      pixelName: 'Purchase_test',
      screen_name: expect.stringMatching(/^(checkout_v3_tr|upsell_an_private)$/),
    });
    // The same purchase, verified by the worker from the portal's answer: the revenue.
    await expect
      .poll(
        async () => (await storedVisitorEvents(session, device, 'arrival', 'server')).length,
        STORED,
      )
      .toBe(1);
    const [verified] = await storedVisitorEvents(session, device, 'arrival', 'server');
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
    // The visitor was anonymous on the signup screen's load, signed up from the lead on.
    expect(events.find((e) => e.event_type === 'signup__load')!.user_id).toBeNull();
    expect(events.find((e) => e.event_type === 'lead')!.user_id).toBe(userId);
    expect(pageProblems(problems)).toEqual([]);
    await context.close();
  });

  it('while the collector answers 503 the events wait; once it is back each arrives exactly once', async () => {
    faulty.reset(503);
    const { context, page, problems } = await faulty.newVisitor();
    await page.goto(new URL('/?skip_split=true', faulty.url).href);
    await queuedFor(page, 'one_pager__load');
    // Ten presses of Locate with no number: 3 events each, past the threshold of 30.
    for (let press = 0; press < 10; press++) await page.locator('#continue-button').click();
    // The threshold's upload and at least one retry were refused. The first retry waits the
    // uploader's first backoff (1 s), as long as expect.poll's own default: give it room.
    await expect
      .poll(() => faulty.state.requests.length, { timeout: 5_000 })
      .toBeGreaterThanOrEqual(2);
    expect(faulty.state.accepted.size).toBe(0);
    // session_start, 3 load events, 10 x (click, one_pager__click, button__continue)
    expect(await queued(page)).toBe(34);

    faulty.state.status = 200;
    await expect.poll(() => faulty.state.accepted.size, { timeout: PATIENCE_MS }).toBe(34);
    const delivered = faulty.state.requests.filter((request) => request.status === 200);
    expect(delivered.flatMap((request) => request.events)).toHaveLength(34);
    expect(faulty.state.duplicates).toBe(0);
    expect(faulty.named('button__continue')).toHaveLength(10);
    await expect.poll(() => queued(page)).toBe(0);
    expect(faulty.state.invalid).toEqual([]);
    expect(pageProblems(problems)).toEqual([]);
    await context.close();
  });
});
