import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { developmentKit } from '../../../worker/dev/kit';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { asDeliveries, consumer } from '../collector/consume';
import { allAccept, fakeEndpoint, META_HOST, TIKTOK_HOST } from '../collector/fake-endpoint';
import { EVERY_DESTINATION } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp } from '../fetch-app';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, PLAN, TICKED_RENEWAL_CONSENT } from './checkout-visitor';

/**
 * SPEC.md §3 and §7 never list `currency`, `plan_id` or `price_with_discount`
 * among the charge answer's fields. A product API that leaves them out still gets every
 * purchase to Meta, TikTok and Amplitude, priced from the catalogue plan the charge was for,
 * and ops read one `portal_shape` warning per field it left out.
 */

type Spy = { mock: { calls: unknown[][] } };
let warn: Spy;
let error: Spy;
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  error = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const parsed = (spy: Spy) =>
  spy.mock.calls.map(([text]) => JSON.parse(String(text)) as Record<string, unknown>);
const logs = { warnings: () => parsed(warn), errors: () => parsed(error) };

const DESTINATIONS = { ...EVERY_DESTINATION };
const LEFT_OUT = ['currency', 'plan_id', 'price_with_discount'];

/** The embedded portal, answering charges without what they were for. */
const portalWithoutChargeFields: PortalFetch = async (request, env, ctx) => {
  const answer = await developmentKit.portal(request, env, ctx);
  const path = new URL(request.url).pathname;
  if (!/\/(polling\/get-result|users\/me\/subscriptions)\//.test(path) || !answer.ok) return answer;
  const body = (await answer.json()) as { data: Record<string, unknown> };
  const charge = (body.data.result_data ?? body.data) as Record<string, unknown> | null;
  for (const field of LEFT_OUT) if (charge) delete charge[field];
  return Response.json(body, { status: answer.status });
};

function visitorOfThatApi() {
  const { queue, events: sent } = recordingQueue();
  const fetchApp = freshApp(
    { portalFetch: portalWithoutChargeFields },
    // No consent asked anywhere: the euro-area upsell below reaches the ad networks too.
    { PORTAL_POLLING_DELAY_MS: '0', EVENTS_QUEUE: queue, CONSENT_COUNTRIES: '' },
  );
  return { visitor: checkoutVisitor({ fetchApp }), sent };
}

async function deliveredTo(messages: QueuedEvent[]) {
  const endpoint = fakeEndpoint(allAccept);
  await consumer(DESTINATIONS, endpoint).run(asDeliveries(messages));
  return {
    meta: endpoint.to(META_HOST).map((r) => (r.body.data as Record<string, unknown>[])[0]),
    tiktok: endpoint.to(TIKTOK_HOST).map((r) => (r.body.data as Record<string, unknown>[])[0]),
    amplitude: endpoint
      .to('api2.amplitude.com')
      .flatMap((r) => r.body.events as Record<string, unknown>[]),
  };
}

function shapeWarnings() {
  return logs
    .warnings()
    .filter((line) => line.warning === 'portal_shape')
    .map(({ call, field, found }) => ({ call, field, found }));
}

describe('a charge answer without currency, plan or amount', () => {
  it('the card route: the purchase reaches Meta, TikTok and Amplitude with the plan’s first charge in its currency', async () => {
    const { visitor, sent } = visitorOfThatApi();
    await visitor.signUp();
    const nonce = await visitor.tokenize(CARDS.succeeds);
    const [result] = await visitor.poll(await visitor.subscribe(nonce), 2);
    expect(result?.status).toBe('succeeded');
    expect(result?.currency ?? null).toBeNull();
    expect(result?.price_with_discount ?? null).toBeNull();

    // One message per poll that saw the success; the consumer counts the first (its claim).
    expect(sent).toHaveLength(2);
    expect(sent[0]?.event.event_properties).toMatchObject({
      price: 6.99,
      currency: 'USD',
      plan: PLAN,
    });
    const out = await deliveredTo(sent);
    expect(out.meta).toEqual([
      expect.objectContaining({ custom_data: { currency: 'USD', value: 6.99 } }),
    ]);
    expect(out.tiktok).toEqual([
      expect.objectContaining({ properties: { currency: 'USD', value: 6.99 } }),
    ]);
    expect(out.amplitude.filter((event) => 'revenue' in event)).toEqual([
      expect.objectContaining({
        price: 6.99,
        revenue: 6.99,
        currency: 'USD',
        productId: PLAN,
        revenueType: 'subscription',
      }),
    ]);
    // Each poll that kept the purchase says what the answer left out.
    const filled = [
      { call: 'pollingResult', field: 'data.result_data.plan_id', found: 'missing' },
      { call: 'pollingResult', field: 'data.result_data.price_with_discount', found: 'missing' },
      { call: 'pollingResult', field: 'data.result_data.currency', found: 'missing' },
    ];
    expect(shapeWarnings()).toEqual([...filled, ...filled]);
    expect(logs.errors().filter((line) => line.error === 'purchase_incomplete')).toEqual([]);
  });

  it('the direct route with a coupon: the upsell is priced at the catalogue price less the coupon', async () => {
    const { visitor, sent } = visitorOfThatApi();
    await visitor.signUp();
    await visitor.poll(await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)));
    const upsell = 'upsell_monthly_999_eur';
    // Asked from the euro area, where the upsell is offered in EUR.
    const answer = await visitor.call(
      `/api/users/me/subscriptions/${upsell}`,
      {
        gateway: 'test',
        payment_method_nonce: null,
        coupon: 'upsell_30',
        payment_intent_id: null,
        user_data: { price: '9.99', currency: 'EUR' },
        renewal_consent: TICKED_RENEWAL_CONSENT,
      },
      { 'cf-ipcountry': 'DE' },
    );
    expect(answer.status).toBe(200);
    expect(sent.map((message) => message.event.event_properties)).toEqual([
      expect.objectContaining({ plan: PLAN, price: 6.99, currency: 'USD' }),
      // 9.99 at 30% off, in the plan's own currency.
      expect.objectContaining({ plan: upsell, price: 6.99, currency: 'EUR' }),
    ]);
    const out = await deliveredTo(sent);
    expect(out.meta.map((event) => event?.custom_data)).toEqual([
      { currency: 'USD', value: 6.99 },
      { currency: 'EUR', value: 6.99 },
    ]);
    expect(shapeWarnings()).toContainEqual({
      call: 'directSubscription',
      field: 'data.price_with_discount',
      found: 'missing',
    });
  });
});
