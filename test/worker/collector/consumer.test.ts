import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { NO_AD_COOKIES } from '../../../worker/attribution/ad-cookies';
import { latestEvents } from '../../../worker/collector/event-log';
import { asDeliveries, consumer } from './consume';
import {
  allAccept,
  fakeEndpoint,
  json,
  META_HOST,
  type SeenRequest,
  TIKTOK_HOST,
} from './fake-endpoint';
import {
  aBatchMessage,
  aMessage,
  anEvent,
  aPurchase,
  aServerMessage,
  countRows,
  freshEventsDbPerTest,
  NOW,
  VISITOR,
} from './fixtures';

const logs = freshEventsDbPerTest();

const AMPLITUDE = { AMPLITUDE_API_KEY: 'amp-secret-key' };
const META = {
  META_PIXEL_ID: '1234567890',
  META_ACCESS_TOKEN: 'meta-secret-token',
  META_TEST_EVENT_CODE: 'TEST123',
};
const TIKTOK = {
  TIKTOK_PIXEL_ID: 'CTTPIXEL01',
  TIKTOK_ACCESS_TOKEN: 'tiktok-secret-token',
  TIKTOK_TEST_EVENT_CODE: 'TEST456',
};

function amplitudeEvents(request: SeenRequest): { insert_id: string }[] {
  return request.body.events as { insert_id: string }[];
}

function everyLogLine(): string {
  return JSON.stringify([...logs.lines(), ...logs.errors()]);
}

describe('local store (no AMPLITUDE_API_KEY)', () => {
  it('stores each event once, even when the queue hands a message over twice', async () => {
    const run = consumer().run;
    const messages = [
      aMessage(anEvent()),
      aMessage(anEvent({ event_type: 'lead', user_id: 'u-1' })),
    ];
    const deliveries = asDeliveries(messages);
    expect((await run(deliveries)).acked).toEqual(deliveries.map((d) => d.id).sort());
    expect((await run(asDeliveries(messages, 2))).acked).toHaveLength(2);
    const stored = await latestEvents(env.EVENTS_DB, 10);
    expect(stored.map((row) => row.insert_id)).toEqual(messages.map((m) => m.event.insert_id));
    expect(stored[1]).toMatchObject({
      event_type: 'lead',
      user_id: 'u-1',
      device_id: VISITOR,
      screen_name: 'one_pager',
      received_at: NOW,
    });
    expect(JSON.parse(stored[1]?.context ?? '{}')).toEqual(messages[1]?.context);
    // `source` says who vouches for the event: the message's, here the collector's 'browser'.
    expect(JSON.parse(stored[1]?.properties ?? '{}')).toEqual({
      screen_name: 'one_pager',
      source: 'browser',
    });
  });

  it('stores an event once when two copies arrive in the same batch, and acks both', async () => {
    const message = aMessage(anEvent());
    const result = await consumer().run([
      { id: 'copy-1', body: message },
      { id: 'copy-2', body: message },
    ]);
    expect(result.acked).toEqual(['copy-1', 'copy-2']);
    expect(await countRows('events')).toBe(1);
  });

  it('calls no network when no key is set', async () => {
    const { run, endpoint } = consumer();
    await run(asDeliveries([aMessage(aPurchase())]));
    expect(endpoint.seen).toEqual([]);
    expect(await countRows('events')).toBe(1);
  });

  it('keeps a message it cannot read in the dead letters, logs it, then acks it', async () => {
    const body = { v: 99, hello: 'world' };
    const result = await consumer().run([{ id: 'junk', body }]);
    expect(result.acked).toEqual(['junk']);
    expect(await countRows('events')).toBe(0);
    const row = await env.EVENTS_DB.prepare('SELECT body FROM dead_letters').first();
    expect(row).toEqual({ body: JSON.stringify(body) });
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'collector_message_invalid' }),
    );
  });

  it('writes one log line per batch with what went where', async () => {
    await consumer().run(asDeliveries([aMessage(anEvent()), aMessage(anEvent())]));
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        queue: 'geofunnel-events',
        messages: 2,
        events: 2,
        retried: 0,
        delivered_local: 2,
      }),
    );
  });
});

describe('a batch message: one per `POST /e` batch', () => {
  it('each of its events reaches each destination once, and the one message is acked', async () => {
    const endpoint = fakeEndpoint(allAccept);
    const { run } = consumer(AMPLITUDE, endpoint);
    const events = [anEvent(), anEvent({ event_type: 'lead' }), anEvent({ event_type: 'click' })];
    const result = await run(asDeliveries([aBatchMessage(events)]));
    expect(result.acked).toHaveLength(1);
    expect(endpoint.seen.flatMap(amplitudeEvents).map((e) => e.insert_id)).toEqual(
      events.map((event) => event.insert_id),
    );
  });

  it('delivered on the first try, it costs EVENTS_DB nothing', async () => {
    const endpoint = fakeEndpoint(allAccept);
    const statements: string[] = [];
    const countingDb = new Proxy(env.EVENTS_DB, {
      get(target, name, receiver) {
        if (name === 'prepare') {
          return (sql: string) => {
            statements.push(sql);
            return target.prepare(sql);
          };
        }
        const value = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { run } = consumer({ ...AMPLITUDE, EVENTS_DB: countingDb }, endpoint);
    const result = await run(
      asDeliveries([aBatchMessage([anEvent(), anEvent()]), aBatchMessage([anEvent()])]),
    );
    expect(result.acked).toHaveLength(2);
    expect(endpoint.seen.flatMap(amplitudeEvents)).toHaveLength(3);
    expect(statements).toEqual([]);
  });

  it('retried, only its message is written down, and the retry reaches only what is missing', async () => {
    let metaUp = false;
    const endpoint = fakeEndpoint((request) =>
      new URL(request.url).host === META_HOST && !metaUp ? json(503, {}) : allAccept(request),
    );
    const { run } = consumer({ ...AMPLITUDE, ...META }, endpoint);
    const batch = aBatchMessage([anEvent(), anEvent()]);
    const purchase = aServerMessage(aPurchase());
    const first = await run(asDeliveries([batch, purchase]));
    expect(first.acked).toHaveLength(1);
    expect(first.retried).toHaveLength(1);
    // Amplitude, the archive, the experiment's counts and the subscription ledger took the
    // purchase: written down for the retry; the acked batch is not.
    const written = await env.EVENTS_DB.prepare(
      'SELECT insert_id, destination, outcome FROM deliveries ORDER BY destination',
    ).all();
    expect(written.results).toEqual([
      { insert_id: purchase.event.insert_id, destination: 'amplitude', outcome: 'delivered' },
      { insert_id: purchase.event.insert_id, destination: 'archive', outcome: 'delivered' },
      { insert_id: purchase.event.insert_id, destination: 'experiment', outcome: 'delivered' },
      { insert_id: purchase.event.insert_id, destination: 'ledger', outcome: 'delivered' },
    ]);

    metaUp = true;
    const amplitudeBefore = endpoint.to('api2.amplitude.com').length;
    expect((await run(asDeliveries([purchase], 2))).acked).toHaveLength(1);
    expect(endpoint.to('api2.amplitude.com')).toHaveLength(amplitudeBefore);
    expect(endpoint.to(META_HOST)).toHaveLength(2);
  });

  it('given up, it is kept whole in the dead letters with how many events it held', async () => {
    const batch = aBatchMessage([anEvent(), anEvent()]);
    const result = await consumer().run(asDeliveries([batch], 11), 'geofunnel-events-dlq');
    expect(result.acked).toHaveLength(1);
    const row = await env.EVENTS_DB.prepare('SELECT insert_id, body FROM dead_letters').first();
    expect(row).toEqual({ insert_id: null, body: JSON.stringify(batch) });
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'collector_dead_letter', events: 2 }),
    );
  });
});

describe('Amplitude (AMPLITUDE_API_KEY set)', () => {
  it('sends the events in Amplitude format with the key and the visitor address, not to the local store', async () => {
    const { run, endpoint } = consumer(AMPLITUDE);
    const purchase = aPurchase();
    await run(asDeliveries([aServerMessage(purchase)]));
    expect(endpoint.seen).toHaveLength(1);
    const [request] = endpoint.seen;
    expect(request?.url).toBe('https://api2.amplitude.com/batch');
    expect(request?.body).toEqual({
      api_key: 'amp-secret-key',
      // A short product user id stays on the event (the Batch API's default drops under 5).
      options: { min_id_length: 1 },
      events: [
        {
          event_type: 'subs_purchase_completed',
          device_id: VISITOR,
          user_id: 'user-42',
          time: purchase.time,
          session_id: -1,
          insert_id: purchase.insert_id,
          // The visitor uuid is SPEC.md §3's user_data.uuid, which a server purchase has too.
          event_properties: {
            ...purchase.event_properties,
            source: 'server',
            user_data: { uuid: VISITOR },
          },
          platform: 'Web',
          ip: '203.0.113.7',
          country: 'DE',
          price: 6.99,
          quantity: 1,
          revenue: 6.99,
          currency: 'USD',
          revenueType: 'subscription',
          productId: 'monthly_7d_intro_usd',
        },
      ],
    });
    expect(await countRows('events')).toBe(0);
    expect(everyLogLine()).not.toContain('amp-secret-key');
  });

  it("SPEC.md §3's user_data reaches Amplitude as one object, for charts on user_data.*", async () => {
    const { run, endpoint } = consumer(AMPLITUDE);
    // As the tracker sends it: the tracking user data flat among the properties.
    const event = anEvent({
      event_properties: {
        screen_name: 'one_pager',
        appsflyer_id: 'af-1',
        uuid: VISITOR,
        fbc: 'fb.1.1700000000000.click',
        fbp: 'fb.1.1700000000000.1234567890',
        fb_click_id: 'click',
        ttp: null,
        source_url: 'https%3A%2F%2Fapp.example.com',
        google_click_id: 'g-1',
      },
    });
    await run(asDeliveries([aMessage(event)]));
    const [sent] = endpoint.seen[0]!.body.events as Record<string, unknown>[];
    expect(sent?.event_properties).toEqual({
      screen_name: 'one_pager',
      appsflyer_id: 'af-1',
      source: 'browser',
      user_data: {
        uuid: VISITOR,
        fbc: 'fb.1.1700000000000.click',
        fbp: 'fb.1.1700000000000.1234567890',
        fb_click_id: 'click',
        source_url: 'https%3A%2F%2Fapp.example.com',
        google_click_id: 'g-1',
      },
    });
  });

  it('a purchase the browser reports goes as an event, never as revenue, whatever it claims', async () => {
    const { run, endpoint } = consumer(AMPLITUDE);
    const forged = aPurchase({ price: 9999, source: 'server' });
    await run(asDeliveries([aMessage(forged)]));
    expect(endpoint.seen).toHaveLength(1);
    const [sent] = endpoint.seen[0]!.body.events as Record<string, unknown>[];
    expect(sent).toMatchObject({
      event_type: 'subs_purchase_completed',
      event_properties: { ...forged.event_properties, source: 'browser' },
    });
    for (const revenueField of [
      'price',
      'quantity',
      'revenueType',
      'productId',
      'revenue',
      'currency',
    ]) {
      expect(sent).not.toHaveProperty(revenueField);
    }
  });

  it('uses AMPLITUDE_ENDPOINT when set', async () => {
    const { run, endpoint } = consumer({
      ...AMPLITUDE,
      AMPLITUDE_ENDPOINT: 'https://api.eu.amplitude.com/batch',
    });
    await run(asDeliveries([aMessage(anEvent())]));
    expect(endpoint.seen.map((r) => r.url)).toEqual(['https://api.eu.amplitude.com/batch']);
  });

  it('revenue keeps its currency, and says whether a subscription, an upsell or a one-time guide was bought', async () => {
    const { run, endpoint } = consumer(AMPLITUDE);
    const bought = [
      aPurchase({ plan: 'monthly_usd', price: 39.99, sub_id: 's1', event_id: 'e1' }),
      aPurchase(
        {
          plan: 'upsell_monthly_999_eur',
          price: 6.99,
          currency: 'eur',
          sub_id: 's2',
          event_id: 'e2',
        },
        { event_type: 'upsell_purchase_completed' },
      ),
      aPurchase(
        { plan: 'guide_899_eur', price: 8.99, currency: 'EUR', sub_id: 's3', event_id: 'e3' },
        { event_type: 'upsell_purchase_completed' },
      ),
      // A plan the catalogue does not know: the event says what kind of purchase it was.
      aPurchase(
        { plan: 'legacy_plan', price: 5, sub_id: 's4', event_id: 'e4' },
        { event_type: 'upsell_purchase_completed' },
      ),
    ];
    await run(asDeliveries(bought.map((event) => aServerMessage(event))));
    const sent = amplitudeEvents(endpoint.seen[0]!) as unknown as Record<string, unknown>[];
    expect(
      sent.map(({ price, revenue, currency, revenueType, productId }) => ({
        price,
        revenue,
        currency,
        revenueType,
        productId,
      })),
    ).toEqual([
      {
        price: 39.99,
        revenue: 39.99,
        currency: 'USD',
        revenueType: 'subscription',
        productId: 'monthly_usd',
      },
      {
        price: 6.99,
        revenue: 6.99,
        currency: 'EUR',
        revenueType: 'upsell',
        productId: 'upsell_monthly_999_eur',
      },
      {
        price: 8.99,
        revenue: 8.99,
        currency: 'EUR',
        revenueType: 'one_time',
        productId: 'guide_899_eur',
      },
      { price: 5, revenue: 5, currency: 'USD', revenueType: 'upsell', productId: 'legacy_plan' },
    ]);
  });

  it('500 twice then 200: retried later with a growing delay, then delivered exactly once', async () => {
    const statuses = [500, 503, 200];
    const endpoint = fakeEndpoint((_, index) => json(statuses[index] ?? 200, {}));
    const { run } = consumer(AMPLITUDE, endpoint);
    const messages = [aMessage(anEvent()), aMessage(anEvent())];
    const ids = asDeliveries(messages).map((d) => d.id);

    const first = await run(asDeliveries(messages, 1));
    expect(first.acked).toEqual([]);
    expect(first.retried).toEqual(ids.map((id) => ({ id, delaySeconds: 30 })));
    const second = await run(asDeliveries(messages, 2));
    expect(second.retried).toEqual(ids.map((id) => ({ id, delaySeconds: 60 })));
    const third = await run(asDeliveries(messages, 3));
    expect(third.acked).toEqual([...ids].sort());
    expect(third.retried).toEqual([]);
    expect(endpoint.seen).toHaveLength(3);
    const accepted = endpoint.seen
      .filter((_, index) => statuses[index] === 200)
      .flatMap(amplitudeEvents);
    expect(accepted.map((e) => e.insert_id).sort()).toEqual(
      messages.map((m) => m.event.insert_id).sort(),
    );
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'amplitude_unavailable', status: 500 }),
    );
  });

  it('a network failure or a 429 is retried, not dropped', async () => {
    for (const answer of [new TypeError('fetch failed'), json(429, { error: 'too many' })]) {
      const { run } = consumer(
        AMPLITUDE,
        fakeEndpoint(() => answer),
      );
      const result = await run(asDeliveries([aMessage(anEvent())], 3));
      expect(result.retried).toEqual([{ id: expect.any(String), delaySeconds: 120 }]);
    }
  });

  it('413: halves the batch down to single events, each delivered once', async () => {
    const endpoint = fakeEndpoint((request) =>
      amplitudeEvents(request).length > 1
        ? json(413, { error: 'Payload too large' })
        : json(200, {}),
    );
    const { run } = consumer(AMPLITUDE, endpoint);
    const messages = Array.from({ length: 5 }, () => aMessage(anEvent()));
    const result = await run(asDeliveries(messages));
    expect(result.acked).toHaveLength(5);
    expect(endpoint.seen.map((request) => amplitudeEvents(request).length)).toEqual([
      5, 3, 2, 1, 1, 1, 2, 1, 1,
    ]);
    const delivered = endpoint.seen
      .filter((request) => amplitudeEvents(request).length === 1)
      .flatMap(amplitudeEvents);
    expect(delivered.map((e) => e.insert_id)).toEqual(messages.map((m) => m.event.insert_id));
  });

  it('413 for a single event: that one is dropped and logged, the others delivered', async () => {
    const big = aMessage(
      anEvent({ event_properties: { screen_name: 'one_pager', blob: 'x'.repeat(4000) } }),
    );
    const endpoint = fakeEndpoint((request) => {
      const events = amplitudeEvents(request);
      const tooBig = events.length > 1 || events[0]?.insert_id === big.event.insert_id;
      return tooBig ? json(413, {}) : json(200, {});
    });
    const { run } = consumer(AMPLITUDE, endpoint);
    const small = aMessage(anEvent());
    const result = await run(asDeliveries([big, small]));
    expect(result.acked).toHaveLength(2);
    expect(result.retried).toEqual([]);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'amplitude_event_too_large',
        insert_id: big.event.insert_id,
      }),
    );
    // Acked on its first try, so nothing was written down for it.
    expect(await countRows('deliveries')).toBe(0);
  });

  it('400 naming bad events: drops those, sends the rest again, acks all', async () => {
    const messages = Array.from({ length: 3 }, () => aMessage(anEvent()));
    const endpoint = fakeEndpoint((_request, index) =>
      index === 0
        ? json(400, {
            code: 400,
            error: 'Request missing required field',
            events_with_invalid_fields: { time: [1] },
          })
        : json(200, {}),
    );
    const { run } = consumer(AMPLITUDE, endpoint);
    const result = await run(asDeliveries(messages));
    expect(result.acked).toHaveLength(3);
    expect(
      endpoint.seen.map((request) => amplitudeEvents(request).map((e) => e.insert_id)),
    ).toEqual([
      messages.map((m) => m.event.insert_id),
      [messages[0]?.event.insert_id, messages[2]?.event.insert_id],
    ]);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'amplitude_rejected', rejected: 1 }),
    );
  });

  it('400 naming none: logs and acks (it will not get better)', async () => {
    const endpoint = fakeEndpoint(() => json(400, { code: 400, error: 'Invalid request' }));
    const { run } = consumer(AMPLITUDE, endpoint);
    const result = await run(asDeliveries([aMessage(anEvent()), aMessage(anEvent())]));
    expect(result.acked).toHaveLength(2);
    expect(endpoint.seen).toHaveLength(1);
  });

  it('400 for a wrong API key: retried until an operator fixes the secret', async () => {
    const endpoint = fakeEndpoint(() =>
      json(400, { code: 400, error: 'Invalid API key: amp-secret-key' }),
    );
    const result = await consumer(AMPLITUDE, endpoint).run(asDeliveries([aMessage(anEvent())]));
    expect(result.retried).toHaveLength(1);
    expect(everyLogLine()).not.toContain('amp-secret-key');
  });
});

/** The `user` of the first event TikTok was sent. */
function tiktokUser(endpoint: ReturnType<typeof fakeEndpoint>): unknown {
  const [request] = endpoint.to(TIKTOK_HOST);
  const data = request?.body.data as { user: unknown }[] | undefined;
  return data?.[0]?.user;
}

describe('ad networks: server-verified purchases only, once each, with the pixel event id', () => {
  const production = {
    ENVIRONMENT: 'production',
    META_TEST_EVENT_CODE: undefined,
    TIKTOK_TEST_EVENT_CODE: undefined,
  };

  it('Meta and TikTok each get one request per purchase, none for other events', async () => {
    const endpoint = fakeEndpoint(allAccept);
    const { run } = consumer({ ...META, ...TIKTOK }, endpoint);
    const subscription = aPurchase({ tt_click_id: 'ttclid-1' });
    const upsell = aPurchase(
      { event_id: null, sub_id: 'sub_upsell_9', price: 9.99, currency: 'eur' },
      { event_type: 'upsell_purchase_completed' },
    );
    const messages = [aMessage(anEvent()), aServerMessage(subscription), aServerMessage(upsell)];
    const result = await run(asDeliveries(messages));
    expect(result.acked).toHaveLength(3);

    const meta = endpoint.to(META_HOST);
    expect(meta.map((r) => r.url)).toEqual([
      'https://graph.facebook.com/v27.0/1234567890/events',
      'https://graph.facebook.com/v27.0/1234567890/events',
    ]);
    const tiktok = endpoint.to(TIKTOK_HOST);
    expect(tiktok).toHaveLength(2);
    const metaIds = meta.map((r) => (r.body.data as { event_id: string }[])[0]?.event_id);
    const tiktokIds = tiktok.map((r) => (r.body.data as { event_id: string }[])[0]?.event_id);
    // The id the browser pixel used; the subscription id when the portal gave no event_id.
    expect(metaIds.sort()).toEqual(['evt_abc', 'sub_upsell_9']);
    expect(tiktokIds.sort()).toEqual(['evt_abc', 'sub_upsell_9']);

    // The queue may, rarely, hand over an acked batch again: its purchases reach the networks
    // with the same event_id, by which each drops the repeat; the local store keeps each once.
    await run(asDeliveries(messages, 2));
    const again = endpoint.seen.slice(4).map((r) => (r.body.data as { event_id: string }[])[0]);
    expect(again.map((event) => event?.event_id).sort()).toEqual([
      'evt_abc',
      'evt_abc',
      'sub_upsell_9',
      'sub_upsell_9',
    ]);
    expect(await countRows('events')).toBe(3);
  });

  it('a purchase the browser reports reaches no ad network, and the local store marks it browser', async () => {
    const endpoint = fakeEndpoint(allAccept);
    const forged = aPurchase({ price: 9999, source: 'server' });
    await consumer({ ...META, ...TIKTOK }, endpoint).run(asDeliveries([aMessage(forged)]));
    expect(endpoint.seen).toEqual([]);
    const [stored] = await latestEvents(env.EVENTS_DB, 1);
    expect(JSON.parse(stored?.properties ?? '{}')).toMatchObject({
      price: 9999,
      source: 'browser',
    });
  });

  it("Meta's request is a Conversions API Purchase with the visitor's server data", async () => {
    const endpoint = fakeEndpoint(allAccept);
    const purchase = aPurchase();
    await consumer(META, endpoint).run(asDeliveries([aServerMessage(purchase)]));
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(VISITOR));
    const hashed = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(endpoint.to(META_HOST)[0]?.body).toEqual({
      data: [
        {
          event_name: 'Purchase',
          event_time: Math.floor(purchase.time / 1000),
          event_id: 'evt_abc',
          action_source: 'website',
          event_source_url: 'https://funnel.test/checkout_v3_tr?gclid=g1',
          user_data: {
            client_ip_address: '203.0.113.7',
            client_user_agent: 'Mozilla/5.0 (iPhone) Test',
            fbc: 'fb.1.1700000000000.click',
            fbp: 'fb.1.1700000000000.1234567890',
            external_id: [hashed],
          },
          custom_data: { currency: 'USD', value: 6.99 },
        },
      ],
      access_token: 'meta-secret-token',
      test_event_code: 'TEST123',
    });
    expect(everyLogLine()).not.toContain('meta-secret-token');
  });

  it("TikTok's request is an Events API CompletePayment, the token in its header", async () => {
    const endpoint = fakeEndpoint(allAccept);
    const purchase = aPurchase({ tt_click_id: 'ttclid-1' });
    await consumer(TIKTOK, endpoint).run(
      asDeliveries([aServerMessage(purchase, { page_url: null })]),
    );
    const [request] = endpoint.to(TIKTOK_HOST);
    expect(request?.url).toBe('https://business-api.tiktok.com/open_api/v1.3/event/track/');
    expect(request?.headers.get('access-token')).toBe('tiktok-secret-token');
    expect(request?.body).toEqual({
      event_source: 'web',
      event_source_id: 'CTTPIXEL01',
      test_event_code: 'TEST456',
      data: [
        {
          event: 'CompletePayment',
          event_time: Math.floor(purchase.time / 1000),
          event_id: 'evt_abc',
          user: {
            ttp: 'ttp_abcdefghijklmnop',
            ttclid: 'ttclid-1',
            ip: '203.0.113.7',
            user_agent: 'Mozilla/5.0 (iPhone) Test',
            external_id: expect.stringMatching(/^[0-9a-f]{64}$/),
          },
          properties: { currency: 'USD', value: 6.99 },
        },
      ],
    });
  });

  it.each([
    ['the paying page’s ttclid, when it has one', 'E.C.P.page', 'E.C.P.page'],
    ['else the one _gf_ttclid kept', null, 'E.C.P.kept'],
    ['else the kept one, when the page’s is malformed', '<junk>', 'E.C.P.kept'],
  ])('TikTok gets %s', async (_, onPage, sent) => {
    const endpoint = fakeEndpoint(allAccept);
    const cookies = { ...NO_AD_COOKIES, ttclid: 'E.C.P.kept' };
    await consumer(TIKTOK, endpoint).run(
      asDeliveries([aServerMessage(aPurchase({ tt_click_id: onPage }), { ad_cookies: cookies })]),
    );
    expect(tiktokUser(endpoint)).toMatchObject({ ttclid: sent });
  });

  it('reads a purchase queued before _gf_ttclid existed, and sends it', async () => {
    const endpoint = fakeEndpoint(allAccept);
    const message = aServerMessage(aPurchase({ tt_click_id: null }));
    const before = { fbc: null, fbp: null, ttp: 'ttp_abcdefghijklmnop' };
    const older = { ...message, context: { ...message.context, ad_cookies: before } };
    const result = await consumer(TIKTOK, endpoint).run([{ id: 'msg-older', body: older }]);
    expect(result).toEqual({ acked: ['msg-older'], retried: [] });
    const user = tiktokUser(endpoint);
    expect(user).toMatchObject({ ttp: 'ttp_abcdefghijklmnop' });
    expect(user).not.toHaveProperty('ttclid');
  });

  it.each(['denied', 'pending'] as const)(
    'nothing to the ad networks when consent is %s; the store still has it',
    async (consent) => {
      const endpoint = fakeEndpoint(allAccept);
      await consumer({ ...META, ...TIKTOK }, endpoint).run(
        asDeliveries([aServerMessage(aPurchase(), { consent, ad_cookies: NO_AD_COOKIES })]),
      );
      expect(endpoint.seen).toEqual([]);
      expect(await countRows('events')).toBe(1);
    },
  );

  it('a visitor where consent is not required: forwarded', async () => {
    const endpoint = fakeEndpoint(allAccept);
    await consumer({ ...META, ...TIKTOK }, endpoint).run(
      asDeliveries([aServerMessage(aPurchase(), { consent: 'not_required', country: 'US' })]),
    );
    expect(endpoint.seen).toHaveLength(2);
  });

  it('missing keys: the network is not called', async () => {
    for (const bindings of [
      { META_PIXEL_ID: '1234567890', TIKTOK_ACCESS_TOKEN: 'tiktok-secret-token' },
      { META_ACCESS_TOKEN: 'meta-secret-token', TIKTOK_PIXEL_ID: 'CTTPIXEL01' },
    ]) {
      const endpoint = fakeEndpoint(allAccept);
      await consumer({ ...bindings, ENVIRONMENT: 'production' }, endpoint).run(
        asDeliveries([aServerMessage(aPurchase())]),
      );
      expect(endpoint.seen).toEqual([]);
    }
  });

  it('outside production only with a test event code; in production without one', async () => {
    const withoutCodes = {
      ...META,
      ...TIKTOK,
      META_TEST_EVENT_CODE: undefined,
      TIKTOK_TEST_EVENT_CODE: undefined,
    };
    const development = fakeEndpoint(allAccept);
    await consumer(withoutCodes, development).run(asDeliveries([aServerMessage(aPurchase())]));
    expect(development.seen).toEqual([]);

    const live = fakeEndpoint(allAccept);
    await consumer({ ...withoutCodes, ...production }, live).run(
      asDeliveries([aServerMessage(aPurchase({ sub_id: 'sub_456' }))]),
    );
    expect(live.to(META_HOST)).toHaveLength(1);
    expect(live.to(TIKTOK_HOST)).toHaveLength(1);
    expect(live.seen.every((request) => !('test_event_code' in request.body))).toBe(true);
  });

  it('a purchase without price or an id to de-duplicate with is dropped and logged, not sent', async () => {
    const endpoint = fakeEndpoint(allAccept);
    const result = await consumer(META, endpoint).run(
      asDeliveries([
        aServerMessage(aPurchase({ event_id: null, sub_id: null })),
        aServerMessage(aPurchase({ price: 'free' })),
      ]),
    );
    expect(endpoint.seen).toEqual([]);
    expect(result.acked).toHaveLength(2);
    expect(
      logs
        .errors()
        .filter((line) => line.error === 'purchase_incomplete')
        .map((line) => line.missing),
    ).toEqual(['event_id and sub_id', 'price']);
  });

  it('Meta down, TikTok fine: the retry goes to Meta alone', async () => {
    let metaUp = false;
    const endpoint = fakeEndpoint((request) =>
      new URL(request.url).host === META_HOST && !metaUp ? json(503, {}) : allAccept(request),
    );
    const { run } = consumer({ ...META, ...TIKTOK }, endpoint);
    const messages = [aServerMessage(aPurchase())];
    expect((await run(asDeliveries(messages))).retried).toHaveLength(1);
    metaUp = true;
    expect((await run(asDeliveries(messages, 2))).acked).toHaveLength(1);
    expect(endpoint.to(META_HOST)).toHaveLength(2);
    expect(endpoint.to(TIKTOK_HOST)).toHaveLength(1);
    expect(await countRows('events')).toBe(1);
  });

  it('a refusal about the event is dropped and logged; a rate limit is retried', async () => {
    const invalid = fakeEndpoint((request) =>
      new URL(request.url).host === META_HOST
        ? json(400, { error: { message: 'Invalid parameter', code: 100, fbtrace_id: 'tr1' } })
        : json(200, { code: 40002, message: 'Invalid event time' }),
    );
    const dropped = await consumer({ ...META, ...TIKTOK }, invalid).run(
      asDeliveries([aServerMessage(aPurchase())]),
    );
    expect(dropped.acked).toHaveLength(1);
    expect(logs.errors()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ error: 'meta_rejected', code: 100, fbtrace_id: 'tr1' }),
        expect.objectContaining({ error: 'tiktok_rejected', code: 40002 }),
      ]),
    );

    const limited = fakeEndpoint((request) =>
      new URL(request.url).host === META_HOST
        ? json(400, { error: { message: 'User request limit reached', code: 17 } })
        : json(200, { code: 40100, message: 'Too many requests' }),
    );
    const retried = await consumer({ ...META, ...TIKTOK }, limited).run(
      asDeliveries([aServerMessage(aPurchase({ sub_id: 'sub_456' }))]),
    );
    expect(retried.retried).toHaveLength(1);
  });
});

describe('a network that refuses our token, permission or API version', () => {
  const configurationRefusals: [string, () => Response][] = [
    [
      'Meta: (#2635) deprecated version',
      () =>
        json(400, {
          error: {
            message: '(#2635) You are calling a deprecated version of the Ads API.',
            type: 'OAuthException',
            code: 2635,
            fbtrace_id: 'tr9',
          },
        }),
    ],
    [
      'Meta: 190, the token expired or was revoked',
      () =>
        json(400, {
          error: { message: 'Error validating access token', type: 'OAuthException', code: 190 },
        }),
    ],
    [
      'Meta: 10, permission denied',
      () => json(403, { error: { message: 'Permission denied', code: 10 } }),
    ],
    [
      'Meta: 200, a permission taken away',
      () => json(403, { error: { message: 'Permissions error', code: 200 } }),
    ],
  ];

  it.each(configurationRefusals)(
    '%s: retried and logged ad_network_auth, then delivered once the token works',
    async (_, refusal) => {
      let fixed = false;
      const endpoint = fakeEndpoint((request) => (fixed ? allAccept(request) : refusal()));
      const { run } = consumer({ ...META }, endpoint);
      const messages = [aServerMessage(aPurchase())];
      const first = await run(asDeliveries(messages));
      expect(first.retried).toHaveLength(1);
      expect(first.acked).toEqual([]);
      expect(logs.errors()).toContainEqual(
        expect.objectContaining({
          error: 'ad_network_auth',
          destination: 'meta',
          insert_id: messages[0]?.event.insert_id,
          version: 'v27.0',
        }),
      );
      expect(logs.errors().some((line) => line.error === 'meta_rejected')).toBe(false);
      fixed = true;
      const second = await run(asDeliveries(messages, 2));
      expect(second.acked).toHaveLength(1);
      expect(endpoint.to(META_HOST)).toHaveLength(2);
      expect(everyLogLine()).not.toContain('meta-secret-token');
    },
  );

  it.each([
    [40001, 'No permission to operate'],
    [40104, 'Access token is empty'],
    [40105, 'Access token is incorrect or has been revoked'],
  ])(
    'TikTok %i: retried and logged ad_network_auth, then delivered once the token works',
    async (code, message) => {
      let fixed = false;
      const endpoint = fakeEndpoint((request) =>
        fixed ? allAccept(request) : json(200, { code, message, request_id: 'r1' }),
      );
      const { run } = consumer(TIKTOK, endpoint);
      const messages = [aServerMessage(aPurchase())];
      expect((await run(asDeliveries(messages))).retried).toHaveLength(1);
      expect(logs.errors()).toContainEqual(
        expect.objectContaining({ error: 'ad_network_auth', destination: 'tiktok', code }),
      );
      fixed = true;
      expect((await run(asDeliveries(messages, 2))).acked).toHaveLength(1);
      expect(everyLogLine()).not.toContain('tiktok-secret-token');
    },
  );

  it('a purchase refused for the token until the queue gives up is kept in the dead letters', async () => {
    const endpoint = fakeEndpoint(() => json(400, { error: { message: 'expired', code: 190 } }));
    const message = aServerMessage(aPurchase());
    // wrangler.toml: max_retries 10; after the 11th delivery it is the dead letter queue's.
    const result = await consumer(META, endpoint).run(
      asDeliveries([message], 1),
      'geofunnel-events-dlq',
    );
    expect(result.acked).toHaveLength(1);
    const row = await env.EVENTS_DB.prepare('SELECT insert_id FROM dead_letters').first<{
      insert_id: string;
    }>();
    expect(row?.insert_id).toBe(message.event.insert_id);
  });

  it('META_GRAPH_VERSION picks the version; one that is not a version falls back to the default, logged', async () => {
    const chosen = fakeEndpoint(allAccept);
    await consumer({ ...META, META_GRAPH_VERSION: 'v26.0' }, chosen).run(
      asDeliveries([aServerMessage(aPurchase())]),
    );
    expect(chosen.seen.map((r) => r.url)).toEqual([
      'https://graph.facebook.com/v26.0/1234567890/events',
    ]);

    const typo = fakeEndpoint(allAccept);
    await consumer({ ...META, META_GRAPH_VERSION: '26/../me' }, typo).run(
      asDeliveries([aServerMessage(aPurchase({ sub_id: 'sub_456' }))]),
    );
    expect(typo.seen.map((r) => r.url)).toEqual([
      'https://graph.facebook.com/v27.0/1234567890/events',
    ]);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'meta_graph_version_invalid', used: 'v27.0' }),
    );
  });
});

describe('dead letter queue', () => {
  // The queues of wrangler.toml, production's and staging's.
  it.each(['geofunnel-events-dlq', 'geofunnel-events-staging-dlq'])(
    'keeps each message given up to %s in dead_letters, logs it and acks',
    async (queue) => {
      const message = aMessage(anEvent());
      const result = await consumer().run(asDeliveries([message], 11), queue);
      expect(result.acked).toHaveLength(1);
      const row = await env.EVENTS_DB.prepare(
        'SELECT insert_id, body, failed_at FROM dead_letters',
      ).first<{
        insert_id: string;
        body: string;
        failed_at: number;
      }>();
      expect(row).toEqual({
        insert_id: message.event.insert_id,
        body: JSON.stringify(message),
        failed_at: NOW,
      });
      expect(logs.errors()).toContainEqual(
        expect.objectContaining({
          error: 'collector_dead_letter',
          insert_id: message.event.insert_id,
        }),
      );
      // Not delivered from there.
      expect(await countRows('events')).toBe(0);
    },
  );
});
