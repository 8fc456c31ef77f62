import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { asDeliveries, consumer } from '../collector/consume';
import { allAccept, fakeEndpoint, META_HOST, TIKTOK_HOST } from '../collector/fake-endpoint';
import { EVERY_DESTINATION } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp, ORIGIN } from '../fetch-app';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, PLAN } from './checkout-visitor';

/**
 * Server-verified purchases: revenue reaches Meta, TikTok and Amplitude only from a
 * charge the product API answered as successful, recorded by the worker once per subscription
 * however often the browser polls; a purchase anyone posts to `/e` never does.
 */

const DESTINATIONS = { ...EVERY_DESTINATION, CONSENT_COUNTRIES: '' };
const AMPLITUDE_HOST = 'api2.amplitude.com';

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** Signs up, pays with 4242 through the polling route, and polls the result `polls` times. */
async function buyAndPoll(visitor: ReturnType<typeof checkoutVisitor>, polls: number) {
  await visitor.signUp();
  const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
  return visitor.poll(started, polls);
}

async function delivered(messages: QueuedEvent[]) {
  const endpoint = fakeEndpoint(allAccept);
  await consumer(DESTINATIONS, endpoint).run(asDeliveries(messages));
  const amplitude = endpoint
    .to(AMPLITUDE_HOST)
    .flatMap((request) => request.body.events as Record<string, unknown>[]);
  return {
    meta: endpoint.to(META_HOST).map((request) => (request.body.data as unknown[])[0]),
    tiktok: endpoint.to(TIKTOK_HOST).map((request) => (request.body.data as unknown[])[0]),
    amplitudeRevenue: amplitude.filter((event) => 'price' in event || 'revenue' in event),
    amplitude,
  };
}

describe('a charge the product API answered', () => {
  it('is recorded once, however often the browser polls, and reaches each destination once as revenue', async () => {
    const { queue, events: sent } = recordingQueue();
    const visitor = checkoutVisitor({ queue });
    const results = await buyAndPoll(visitor, 5);
    expect(results.every((result) => result?.status === 'succeeded')).toBe(true);
    const subscriptionId = results[0]?.subscription_id;

    // Kept before each answer: one message per poll that saw the success, each its own insert id.
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((each) => each.event.insert_id)).size).toBe(5);
    const [message] = sent;
    expect(message).toMatchObject({
      source: 'server',
      event: {
        event_type: 'subs_purchase_completed',
        device_id: visitor.visitorId,
        user_id: expect.any(String),
        event_properties: {
          screen_name: 'checkout_v3_tr',
          source: 'server',
          price: 6.99,
          currency: 'USD',
          plan: PLAN,
          sub_id: subscriptionId,
          event_id: results[0]?.event_id,
          gclid: 'g-1',
          variant: 'default',
          flow: 'default',
          // No page of the funnel set gf_route or gf_touch for this visitor.
          route: null,
          traffic_source: null,
        },
      },
      context: { ip: '203.0.113.9', country: 'US', consent: 'not_required' },
    });
    // The consumer claims the subscription for the first and drops the other four.
    const out = await delivered(sent);
    const claim = await env.EVENTS_DB.prepare(
      'SELECT insert_id FROM verified_purchases WHERE subscription_id = ?1',
    )
      .bind(subscriptionId)
      .all<{ insert_id: string }>();
    expect(claim.results).toEqual([{ insert_id: message?.event.insert_id }]);
    expect(out.meta).toEqual([
      expect.objectContaining({
        event_name: 'Purchase',
        event_id: results[0]?.event_id,
        custom_data: { currency: 'USD', value: 6.99 },
      }),
    ]);
    expect(out.tiktok).toEqual([
      expect.objectContaining({ event: 'CompletePayment', event_id: results[0]?.event_id }),
    ]);
    expect(out.amplitudeRevenue).toEqual([
      expect.objectContaining({ price: 6.99, productId: PLAN, user_id: expect.any(String) }),
    ]);
  });

  it("names no user when the visitor rewrote gf_user with another account's id", async () => {
    const { queue, events: sent } = recordingQueue();
    const visitor = checkoutVisitor({ queue });
    await visitor.signUp();
    const own = visitor.cookies.get('gf_user') ?? '';
    expect(decodeURIComponent(own)).toMatch(/^[^.]+\.[\w-]{43}$/);
    // Another account's id, bare and with this visitor's own signature.
    // The main plan, then an upsell: a plan is bought once (its purchase's attempt ledger).
    const plans = [PLAN, 'upsell_monthly_999_usd'];
    for (const forged of ['user-victim', `user-victim.${own.split('.').at(-1)}`]) {
      visitor.cookies.set('gf_user', forged);
      const nonce = await visitor.tokenize(CARDS.succeeds);
      const plan = plans.shift();
      const data = plan === PLAN ? undefined : { price: '9.99', currency: 'USD' };
      const coupon = plan === PLAN ? null : 'upsell_30';
      const started = await visitor.subscribe(nonce, crypto.randomUUID(), plan, data, coupon);
      await visitor.poll(started, 1);
    }

    expect(sent).toHaveLength(2);
    expect(sent.map((message) => message.event.user_id)).toEqual([null, null]);
  });

  it('a declined charge is never recorded', async () => {
    const { queue, events: sent } = recordingQueue();
    const visitor = checkoutVisitor({ queue });
    await visitor.signUp();
    const { result } = await visitor.pay(CARDS.genericDecline);
    expect(result?.status).toBe('failed');
    expect(sent).toEqual([]);
  });

  it('carries the route and the source of the visit the buyer came in on', async () => {
    const { queue, events: sent } = recordingQueue();
    const visitor = checkoutVisitor({ queue });
    // The landing from a TikTok ad sets gf_touch and gf_route, which the API calls bring back.
    expect((await visitor.call('/?utm_source=tiktok')).status).toBe(200);
    await buyAndPoll(visitor, 1);
    expect(sent.map((message) => message.event.event_properties)).toEqual([
      expect.objectContaining({ source: 'server', route: 'default', traffic_source: 'tiktok' }),
    ]);
  });
});

describe("the purchase's TikTok ids (SPEC.md §3 stored keys)", () => {
  const PIXEL_TTP = '01JV8BFN75M3CKD94GVAWSG07T_.tt.1.1790477313544';

  it("carries the _ttp TikTok's pixel wrote, exactly, to the queue and to the Events API", async () => {
    const { queue, events: sent } = recordingQueue();
    const visitor = checkoutVisitor({
      queue,
      otherCookies: `_ttp=0123456789abcdef0123456789abcdef; _ttp=${PIXEL_TTP}`,
    });
    await buyAndPoll(visitor, 1);
    expect(sent.map((message) => message.context.ad_cookies.ttp)).toEqual([PIXEL_TTP]);
    const out = await delivered(sent);
    expect(out.tiktok).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ ttp: PIXEL_TTP }) }),
    ]);
  });

  it('carries the ttclid a page kept in _gf_ttclid, when the paying page has none', async () => {
    const { queue, events: sent } = recordingQueue();
    const visitor = checkoutVisitor({ queue });
    expect((await visitor.call('/?ttclid=E.C.P.CqgBlanding_1')).status).toBe(200);
    await buyAndPoll(visitor, 1);
    expect(sent.map((message) => message.context.ad_cookies.ttclid)).toEqual([
      'E.C.P.CqgBlanding_1',
    ]);
    const out = await delivered(sent);
    expect(out.tiktok).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ ttclid: 'E.C.P.CqgBlanding_1' }),
      }),
    ]);
  });

  it('a forged _ttp or _gf_ttclid, malformed or overlong, is not queued nor sent, and the purchase still is', async () => {
    for (const forged of ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'A'.repeat(4000)]) {
      const { queue, events: sent } = recordingQueue();
      const otherCookies = `_ttp=${forged}; _gf_ttclid=${forged}`;
      await buyAndPoll(checkoutVisitor({ queue, otherCookies }), 1);
      expect(sent.map((message) => message.context.ad_cookies)).toEqual([
        expect.objectContaining({ ttp: null, ttclid: null }),
      ]);
      expect(JSON.stringify(sent).length).toBeLessThan(4000);
      const out = await delivered(sent);
      expect(out.tiktok).toHaveLength(1);
      expect(out.tiktok[0]).toHaveProperty('user');
      expect(out.tiktok[0]).not.toHaveProperty('user.ttp');
      expect(out.tiktok[0]).not.toHaveProperty('user.ttclid');
    }
  });
});

describe('a purchase posted to /e', () => {
  function forgedPurchase(properties: Record<string, string | number | null> = {}): CollectedEvent {
    return {
      event_type: 'subs_purchase_completed',
      insert_id: `forged-${crypto.randomUUID()}`,
      time: Date.now() - 1000,
      session_id: Date.now() - 60_000,
      device_id: crypto.randomUUID(),
      user_id: null,
      event_properties: {
        screen_name: 'checkout_v3_tr',
        price: 4999,
        currency: 'USD',
        plan: PLAN,
        sub_id: 'sub_forged',
        event_id: 'evt_forged',
        source: 'server',
        ...properties,
      },
    };
  }

  async function post(queue: Queue<QueuedEvent>, event: CollectedEvent, headers: HeadersInit) {
    const fetchApp = freshApp({}, { EVENTS_QUEUE: queue });
    return fetchApp('/e', {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
      body: JSON.stringify({ events: [event] }),
    });
  }

  it.each<[string, HeadersInit]>([
    ['with no Origin (curl)', {}],
    ['from another Origin', { origin: 'https://evil.example' }],
    ['from the page’s own Origin', { origin: ORIGIN, 'sec-fetch-site': 'same-origin' }],
  ])('%s never reaches a destination as revenue', async (_, headers) => {
    const { queue, events: sent } = recordingQueue();
    await post(queue, forgedPurchase(), headers);
    expect(sent.every((message) => message.source === 'browser')).toBe(true);
    const out = await delivered(sent);
    expect(out.meta).toEqual([]);
    expect(out.tiktok).toEqual([]);
    expect(out.amplitudeRevenue).toEqual([]);
  });

  it("records the plan's first charge from the catalogue, whatever price the request named", async () => {
    const { queue, events: sent } = recordingQueue();
    const visitor = checkoutVisitor({ queue });
    await visitor.signUp();
    const forged = { price: '0.01', periodPrice: '0.01', currency: 'USD' };
    const nonce = await visitor.tokenize(CARDS.succeeds);
    const [result] = await visitor.poll(await visitor.subscribe(nonce, undefined, PLAN, forged));
    expect(result).toMatchObject({ status: 'succeeded', price_with_discount: 6.99 });
    expect(sent.map((message) => message.event.event_properties)).toEqual([
      expect.objectContaining({ source: 'server', price: 6.99, currency: 'USD', plan: PLAN }),
    ]);
  });

  it('a real purchase replayed with another price stays the one real revenue', async () => {
    const { queue, events: sent } = recordingQueue();
    const [result] = await buyAndPoll(checkoutVisitor({ queue }), 1);
    const replay = forgedPurchase({
      price: 4999,
      sub_id: result?.subscription_id ?? null,
      event_id: result?.event_id ?? null,
    });
    const answer = await post(queue, replay, { origin: ORIGIN, 'sec-fetch-site': 'same-origin' });
    expect(answer.status).toBe(200);
    expect(sent.map((message) => message.source).sort()).toEqual(['browser', 'server']);

    const out = await delivered(sent);
    expect(out.meta).toHaveLength(1);
    expect(out.tiktok).toHaveLength(1);
    expect(out.amplitudeRevenue).toEqual([expect.objectContaining({ price: 6.99 })]);
    // The browser's copy still tells the funnel story, marked as the browser's.
    expect(out.amplitude).toContainEqual(
      expect.objectContaining({
        event_type: 'subs_purchase_completed',
        event_properties: expect.objectContaining({ source: 'browser', price: 4999 }),
      }),
    );
  });
});
