import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CollectorAnswer } from '../../../shared/analytics/batch';
import { ANALYTICS_LIMITS } from '../../../shared/analytics/limits';
import { MAX_EVENT_AGE_MS, MAX_EVENT_LEAD_MS } from '../../../worker/collector/intake-rules';
import { signedValue } from '../../fixtures/signed-cookies';
import { freshApp, ORIGIN } from '../fetch-app';
import { anEvent, freshEventsDbPerTest, NOW, VISITOR } from './fixtures';
import { recordingQueue } from './recording-queue';

const logs = freshEventsDbPerTest();

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', origin: ORIGIN };

function collector(queue = recordingQueue(), bindings: Partial<Cloudflare.Env> = {}) {
  const fetchApp = freshApp({ now: () => NOW }, { EVENTS_QUEUE: queue.queue, ...bindings });
  /** A POST of `body` with exactly these headers. */
  const send = (body: BodyInit, headers: Record<string, string>) =>
    fetchApp('/e', { method: 'POST', headers, body });
  return {
    queue,
    send,
    /** As the page's tracker posts: same-origin JSON with the visitor's cookie, plus `headers`. */
    post: (body: BodyInit, headers: Record<string, string> = {}) =>
      send(body, {
        'content-type': 'application/json',
        ...SAME_ORIGIN,
        cookie: `userUuid=${VISITOR}`,
        ...headers,
      }),
    fetchApp,
  };
}

async function expectRefusal(
  res: Response,
  status: number,
  error: string,
): Promise<string | undefined> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: string; detail?: string };
  expect(body.error).toBe(error);
  return body.detail;
}

/** The counter object `POST /e` keeps a visitor's (or an address's) seen ids in. */
function visitorCounter(name = `collector_batches_per_visitor:${VISITOR}`) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
}

/** The insert ids that object holds, sorted. */
async function claimedIds(name?: string): Promise<string[]> {
  return runInDurableObject(visitorCounter(name), (_, state) => {
    const table = state.storage.sql
      .exec("SELECT 1 FROM sqlite_master WHERE name = 'seen_ids'")
      .toArray();
    if (table.length === 0) return [];
    return state.storage.sql
      .exec<{ insert_id: string }>('SELECT insert_id FROM seen_ids ORDER BY insert_id')
      .toArray()
      .map((row) => row.insert_id);
  });
}

/** The collector's signed copy of the session's user id (worker/request/signed-in-user.ts). */
function signedInAs(userId: string): Promise<string> {
  return signedValue('gf_event_user', VISITOR, userId);
}

function collectorLine() {
  return logs.lines().find((line) => line.path === '/e');
}

describe('POST /e takes a batch', () => {
  it('answers how many were new, and queues each with what the server knows of the request', async () => {
    const { post, queue } = collector();
    // Signed in as user-42 since the first event, which keeps the null of its moment.
    const events = [anEvent(), anEvent({ event_type: 'lead', user_id: 'user-42' })];
    const res = await post(JSON.stringify({ events }), {
      'cf-connecting-ip': '203.0.113.7',
      'user-agent': 'Mozilla/5.0 Test',
      'cf-ipcountry': 'DE',
      referer: `${ORIGIN}/signup?fbclid=f1`,
      cookie: `userUuid=${VISITOR}; gf_event_user=${await signedInAs('user-42')}; _fbc=fb.1.1700000000000.f1; _fbp=fb.1.1700000000000.42; _ttp=ttpvalue0123456789; _gf_ttclid=E.C.P.t1; gf_consent=granted`,
    });
    expect(res.status).toBe(200);
    expect(CollectorAnswer.parse(await res.json())).toEqual({ accepted: 2, duplicates: 0 });
    // One message for the batch: its events, and the one context of the request.
    expect(queue.sent).toEqual([
      {
        v: 2,
        source: 'browser',
        events,
        context: {
          received_at: NOW,
          ip: '203.0.113.7',
          user_agent: 'Mozilla/5.0 Test',
          country: 'DE',
          page_url: `${ORIGIN}/signup?fbclid=f1`,
          visitor_id: VISITOR,
          ad_cookies: {
            fbc: 'fb.1.1700000000000.f1',
            fbp: 'fb.1.1700000000000.42',
            ttp: 'ttpvalue0123456789',
            ttclid: 'E.C.P.t1',
          },
          consent: 'granted',
        },
      },
    ]);
    expect(queue.calls).toEqual([1]);
    expect(collectorLine()).toMatchObject({ status: 200, accepted: 2, duplicates: 0, events: 2 });
  });

  it('logs the route its pages report, so ops find a route’s beacons as its pages', async () => {
    const { post } = collector();
    const onRoute = (route: unknown) =>
      anEvent({ event_properties: { screen_name: 'one_pager', route } as never });
    const lineFor = async (events: unknown[]) => {
      const res = await post(JSON.stringify({ events }), { cookie: `userUuid=${VISITOR}` });
      expect(res.status).toBe(200);
      return logs
        .lines()
        .filter((line) => line.path === '/e')
        .at(-1);
    };
    expect(await lineFor([onRoute('tiktok-us'), onRoute('tiktok-us')])).toMatchObject({
      route: 'tiktok-us',
    });
    // Two routes in one batch, none, or something no route id looks like: no route on the line.
    expect(await lineFor([onRoute('tiktok-us'), onRoute('meta-de')])).toMatchObject({
      route: null,
    });
    expect(await lineFor([anEvent()])).toMatchObject({ route: null });
    expect(await lineFor([onRoute('\u001b[2Jx')])).toMatchObject({ route: null });
  });

  it('takes a sendBeacon string body (text/plain)', async () => {
    const { post, queue } = collector();
    const res = await post(JSON.stringify({ events: [anEvent()] }), {
      'content-type': 'text/plain;charset=UTF-8',
    });
    expect(await res.json()).toEqual({ accepted: 1, duplicates: 0 });
    expect(queue.sent).toHaveLength(1);
  });

  it.each([
    ['denied', 'DE', 'gf_consent=denied', 'denied'],
    ['not answered where consent is required', 'FR', '', 'pending'],
    ['not answered, country unknown', null, '', 'pending'],
  ])('keeps no ad cookie of a visitor who %s', async (_, country, answer, consent) => {
    const { post, queue } = collector();
    await post(JSON.stringify({ events: [anEvent()] }), {
      ...(country ? { 'cf-ipcountry': country } : {}),
      cookie: `_fbc=fb.1.1700000000000.f1; _fbp=fb.1.1700000000000.42; _ttp=ttpvalue0123456789; _gf_ttclid=E.C.P.t1; ${answer}`,
    });
    expect(queue.sent[0]?.context).toMatchObject({
      consent,
      ad_cookies: { fbc: null, fbp: null, ttp: null, ttclid: null },
    });
  });

  it('keeps the ad cookies where consent is not required (CONSENT_COUNTRIES)', async () => {
    const { post, queue } = collector();
    await post(JSON.stringify({ events: [anEvent()] }), {
      'cf-ipcountry': 'US',
      cookie: '_fbp=fb.1.1700000000000.42',
    });
    expect(queue.sent[0]?.context).toMatchObject({
      consent: 'not_required',
      ad_cookies: { fbc: null, fbp: 'fb.1.1700000000000.42', ttp: null, ttclid: null },
    });
  });

  it('sets no cookie and runs no split test: a beacon is not a visit', async () => {
    const { post } = collector();
    const res = await post(JSON.stringify({ events: [anEvent()] }));
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(collectorLine()).toMatchObject({ variant: null, flow: null });
  });
});

describe('each event once', () => {
  it('answers a batch sent again as duplicates and queues nothing twice', async () => {
    const { post, queue } = collector();
    const body = JSON.stringify({ events: [anEvent(), anEvent(), anEvent()] });
    expect(await (await post(body)).json()).toEqual({ accepted: 3, duplicates: 0 });
    expect(await (await post(body)).json()).toEqual({ accepted: 0, duplicates: 3 });
    expect(queue.events).toHaveLength(3);
    expect(queue.calls).toEqual([1]);
    expect(
      logs
        .lines()
        .filter((line) => line.path === '/e')
        .at(-1),
    ).toMatchObject({
      accepted: 0,
      duplicates: 3,
    });
  });

  it('counts an insert_id twice in one batch once', async () => {
    const { post, queue } = collector();
    const event = anEvent();
    const res = await post(JSON.stringify({ events: [event, { ...event, event_type: 'click' }] }));
    expect(await res.json()).toEqual({ accepted: 1, duplicates: 1 });
    expect(queue.events.map((message) => message.event)).toEqual([event]);
  });

  it('keeps new events of a batch that also holds old ones', async () => {
    const { post, queue } = collector();
    const seen = anEvent();
    await post(JSON.stringify({ events: [seen] }));
    const fresh = anEvent();
    expect(await (await post(JSON.stringify({ events: [seen, fresh] }))).json()).toEqual({
      accepted: 1,
      duplicates: 1,
    });
    expect(queue.events.map((message) => message.event.insert_id)).toEqual([
      seen.insert_id,
      fresh.insert_id,
    ]);
    expect(queue.sent).toHaveLength(2);
  });
});

describe('clock sanity', () => {
  it('drops events over 7 days old or over a day ahead, keeps the rest of the batch', async () => {
    const { post, queue } = collector();
    const current = [
      anEvent({ time: NOW - MAX_EVENT_AGE_MS }),
      anEvent({ time: NOW + MAX_EVENT_LEAD_MS }),
    ];
    const stale = anEvent({ time: NOW - MAX_EVENT_AGE_MS - 1 });
    const ahead = anEvent({ time: NOW + MAX_EVENT_LEAD_MS + 1 });
    const res = await post(JSON.stringify({ events: [stale, current[0], ahead, current[1]] }));
    expect(await res.json()).toEqual({ accepted: 2, duplicates: 0 });
    expect(queue.events.map((message) => message.event)).toEqual(current);
    expect(collectorLine()).toMatchObject({ events: 4, clock_dropped: 2, accepted: 2 });
    // Not remembered either: with a corrected clock it would count.
    expect(await claimedIds()).toEqual(current.map((event) => event.insert_id).sort());
  });
});

describe('refusals', () => {
  it('malformed JSON: 400 invalid_batch', async () => {
    const { post, queue } = collector();
    const detail = await expectRefusal(await post('{"events": [}'), 400, 'invalid_batch');
    expect(detail).toBe('body is not JSON');
    expect(queue.calls).toEqual([]);
    expect(collectorLine()).toMatchObject({ status: 400, error: 'invalid_batch' });
  });

  it('a schema violation: 400 naming the first problem', async () => {
    const { post, queue } = collector();
    const events = [anEvent(), { ...anEvent(), insert_id: 'short' }, { ...anEvent(), time: -1 }];
    const detail = await expectRefusal(
      await post(JSON.stringify({ events })),
      400,
      'invalid_batch',
    );
    expect(detail).toMatch(/^events\.1\.insert_id: .+ \(and 1 more\)$/);
    expect(queue.calls).toEqual([]);
    expect(await claimedIds()).toEqual([]);
  });

  it('an insert_id with a control character (a terminal escape): 400, nothing kept', async () => {
    const { post, queue } = collector();
    const events = [anEvent(), { ...anEvent(), insert_id: 'evt\u001b[2J\u001b]0;x\u0007' }];
    const detail = await expectRefusal(
      await post(JSON.stringify({ events })),
      400,
      'invalid_batch',
    );
    expect(detail).toBe('events.1.insert_id: must be visible ASCII characters');
    expect(queue.calls).toEqual([]);
  });

  it('an event without screen_name (SPEC.md §3): 400', async () => {
    const { post } = collector();
    const events = [anEvent({ event_properties: { price: 1 } })];
    const detail = await expectRefusal(
      await post(JSON.stringify({ events })),
      400,
      'invalid_batch',
    );
    expect(detail).toMatch(/^events\.0\.event_properties: .*screen_name/);
  });

  it('more than 100 events: 400', async () => {
    const { post } = collector();
    const events = Array.from({ length: ANALYTICS_LIMITS.batchSize + 1 }, () => anEvent());
    const detail = await expectRefusal(
      await post(JSON.stringify({ events })),
      400,
      'invalid_batch',
    );
    expect(detail).toMatch(/^events: /);
  });

  it('an empty batch: 400', async () => {
    const { post } = collector();
    await expectRefusal(await post(JSON.stringify({ events: [] })), 400, 'invalid_batch');
  });

  it('a body over maxBatchBytes by its Content-Length: 413 without reading it', async () => {
    const { queue, fetchApp } = collector();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode(' '.repeat(1024)));
      },
    });
    const request = new Request(`${ORIGIN}/e`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(ANALYTICS_LIMITS.maxBatchBytes + 1),
        ...SAME_ORIGIN,
      },
      body,
    });
    await expectRefusal(await fetchApp('/e', request), 413, 'payload_too_large');
    // At most what the stream buffers ahead by itself, never the 59 KiB it would take to pass.
    expect(pulled).toBeLessThan(3);
    expect(queue.calls).toEqual([]);
  });

  it('a body over maxBatchBytes without a Content-Length (chunked): 413 once read past it', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(16 * 1024));
    const CHUNKS = 100;
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= CHUNKS) return controller.close();
        pulled += 1;
        controller.enqueue(chunk);
      },
    });
    const request = new Request(`${ORIGIN}/e`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...SAME_ORIGIN },
      body: stream,
    });
    expect(request.headers.get('content-length')).toBeNull();
    await expectRefusal(await collector().fetchApp('/e', request), 413, 'payload_too_large');
    // It stopped once past the limit (4 chunks of 16 KiB), not after reading 1.6 MB.
    expect(pulled).toBeLessThan(10);
  });

  it('exactly maxBatchBytes is read', async () => {
    const { post } = collector();
    const body = JSON.stringify({ events: [anEvent()] });
    const padded = body + ' '.repeat(ANALYTICS_LIMITS.maxBatchBytes - body.length);
    expect(new TextEncoder().encode(padded).byteLength).toBe(ANALYTICS_LIMITS.maxBatchBytes);
    expect((await post(padded)).status).toBe(200);
  });

  it.each([
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' }],
    [
      'Sec-Fetch-Site same-site',
      { 'sec-fetch-site': 'same-site', origin: 'https://a.funnel.test' },
    ],
    // A forged Origin cannot outvote the browser's own Sec-Fetch-Site.
    ['Sec-Fetch-Site none with our Origin', { 'sec-fetch-site': 'none', origin: ORIGIN }],
    ['no Sec-Fetch-Site, Origin null (a sandboxed frame)', { origin: 'null' }],
    ['no Sec-Fetch-Site, another Origin (an older browser)', { origin: 'https://evil.test' }],
    // No page of ours: the tracker's fetch and beacon carry both (a curl posting purchases).
    ['neither Sec-Fetch-Site nor Origin', {}],
  ])('%s: 403 cross_site, nothing kept', async (_, headers) => {
    const { queue, send } = collector();
    const res = await send(JSON.stringify({ events: [anEvent()] }), {
      'content-type': 'text/plain',
      ...headers,
    });
    await expectRefusal(res, 403, 'cross_site');
    expect(queue.calls).toEqual([]);
    expect(await claimedIds()).toEqual([]);
  });

  it('only our Origin, without Sec-Fetch-Site (an older browser), is taken', async () => {
    const { send } = collector();
    const res = await send(JSON.stringify({ events: [anEvent()] }), {
      'content-type': 'application/json',
      origin: ORIGIN,
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
  ])('%s: 415 unsupported_media_type', async (_, type) => {
    const { post } = collector();
    const res = await post(JSON.stringify({ events: [anEvent()] }), { 'content-type': type });
    await expectRefusal(res, 415, 'unsupported_media_type');
  });

  it('GET /e: 405 with Allow: POST', async () => {
    const res = await collector().fetchApp('/e');
    await expectRefusal(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('when the queue or the counter fails', () => {
  it('503 collector_unavailable, and the batch sent again is accepted, not taken for duplicates', async () => {
    const queue = recordingQueue({ failCalls: [0] });
    const { post } = collector(queue);
    const body = JSON.stringify({ events: [anEvent(), anEvent()] });
    await expectRefusal(await post(body), 503, 'collector_unavailable');
    expect(queue.sent).toHaveLength(0);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'collector_queue_failed', unsent: 2 }),
    );
    // The claims were released with the failure.
    expect(await claimedIds()).toEqual([]);
    queue.stopFailing();
    expect(await (await post(body)).json()).toEqual({ accepted: 2, duplicates: 0 });
    expect(queue.events).toHaveLength(2);
  });

  it('the counter that de-duplicates unreachable: 503 collector_unavailable, nothing queued', async () => {
    const queue = recordingQueue();
    const limiter = env.RATE_LIMITER;
    const brokenLimiter = {
      idFromName: (name: string) => limiter.idFromName(name),
      get: () => ({
        admit: () => Promise.reject(new Error('Durable Object reset: test outage')),
        hit: () => Promise.reject(new Error('Durable Object reset: test outage')),
      }),
    } as unknown as Cloudflare.Env['RATE_LIMITER'];
    const { post } = collector(queue, { RATE_LIMITER: brokenLimiter });
    const res = await post(JSON.stringify({ events: [anEvent()] }));
    await expectRefusal(res, 503, 'collector_unavailable');
    expect(queue.calls).toEqual([]);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'collector_dedup_failed' }),
    );
  });

  it('takes a batch without touching D1: EVENTS_DB down changes nothing', async () => {
    const queue = recordingQueue();
    const brokenDb = {
      prepare() {
        throw new Error('D1_ERROR: database unavailable');
      },
      batch() {
        throw new Error('D1_ERROR: database unavailable');
      },
    } as unknown as D1Database;
    const { post } = collector(queue, { EVENTS_DB: brokenDb });
    const body = JSON.stringify({ events: [anEvent(), anEvent()] });
    expect(await (await post(body)).json()).toEqual({ accepted: 2, duplicates: 0 });
    expect(await (await post(body)).json()).toEqual({ accepted: 0, duplicates: 2 });
    expect(queue.sent).toHaveLength(1);
  });
});

describe('the seen ids', () => {
  it("live in the visitor's counter, and lapse after the retention while newer ones stay", async () => {
    const { post } = collector();
    const first = anEvent();
    await post(JSON.stringify({ events: [first] }));
    const stub = visitorCounter();
    await runInDurableObject(stub, (_, state) => {
      // Backdate the first claim to just past its retention.
      state.storage.sql.exec('UPDATE seen_ids SET expires_at = ?', Date.now() - 1);
    });
    const second = anEvent();
    await post(JSON.stringify({ events: [second] }));
    expect(await claimedIds()).toEqual([first.insert_id, second.insert_id].sort());
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await claimedIds()).toEqual([second.insert_id]);
    // The lapsed id would count again (its event would be over 7 days old by then: dropped).
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBeGreaterThan(
      Date.now(),
    );
  });

  it('a batch without a visitor cookie is de-duplicated by its address', async () => {
    const { post } = collector();
    const body = JSON.stringify({ events: [anEvent()] });
    const headers = { cookie: '', 'cf-connecting-ip': '198.51.100.23' };
    expect(await (await post(body, headers)).json()).toEqual({ accepted: 1, duplicates: 0 });
    expect(await (await post(body, headers)).json()).toEqual({ accepted: 0, duplicates: 1 });
    expect(await claimedIds('collector_batches_per_ip:198.51.100.23')).toHaveLength(1);
  });
});
