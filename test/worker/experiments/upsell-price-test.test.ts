import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { parsePins } from '../../../worker/experiments/assignment/assign';
import { readExperimentRows } from '../../../worker/experiments/store/experiment-stores';
import { unsigned } from '../../fixtures/signed-cookies';
import { asDeliveries, consumer } from '../collector/consume';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp, putConfig } from '../fetch-app';
import { islandProps } from '../page-html';
import { checkoutVisitor, TICKED_RENEWAL_CONSENT } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';
import { CHROME, emptyExperiments, putExperiments, shardRows, stores } from './experiment-fixtures';

/**
 * An upsell price test runs like any other (docs/experiments.md, "An upsell price test"): an
 * experiment of the upsell layer whose variant offers the upsell at another of SPEC.md §3's
 * tiers. Its visitors are exposed at the upsell, not before; each arm is shown and charged its
 * own tier at the upsell's 30% off (SPEC.md §1) and no other; and its revenue is the upsells its
 * arms bought after exposure.
 */

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

const UPSELL_TEST: ExperimentDocument = {
  name: 'Upsell at 5.99',
  status: 'running',
  layer: 'upsell',
  audience: {},
  coverage: 1,
  seed: 'up-price',
  phase: 1,
  control: 'current',
  variants: {
    current: { weight: 1, change: {} },
    cheap: { weight: 1, change: { upsellPlans: ['upsell_monthly_599', 'upsell_quarterly_599'] } },
  },
};

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  await putConfig('split', {
    version: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 1 } },
  });
  await putExperiments({ 'up-price': UPSELL_TEST });
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

/** A visitor drawn into `current` (0.2) or `cheap` (0.7), with the queue their purchases go to. */
function visitorDrawn(random: number) {
  const queue = recordingQueue();
  let clock = NOW;
  const fetchApp = freshApp(
    { random: () => random, now: () => clock },
    { PORTAL_POLLING_DELAY_MS: '0', EVENTS_QUEUE: queue.queue },
  );
  const visitor = checkoutVisitor({ fetchApp, ip: `198.51.100.${Math.floor(random * 100)}` });
  const page = async (path: string) => {
    clock += 60_000;
    const response = await visitor.call(path, undefined, { 'user-agent': CHROME });
    expect(response.status).toBe(200);
    return response.text();
  };
  const pinned = () => parsePins(unsigned(visitor.cookies.get('gf_x'))).get('up-price');
  return { visitor, queue, page, pinned };
}

/** The upsell's plans as its buy button sends them: id and coupon. */
function upsellOffers(html: string) {
  const props = islandProps(html, 'UpsellPurchase') as {
    offers: Record<string, { id: string; coupon: string | null; price: string }>;
  };
  return Object.values(props.offers).map(({ id, coupon }) => ({ id, coupon }));
}

const exposures = () =>
  shardRows<{ variant: string }>(
    "SELECT variant FROM xp_exposures WHERE experiment = 'up-price' ORDER BY variant",
  );

function buyUpsell(visitor: ReturnType<typeof checkoutVisitor>, plan: string, coupon: string) {
  return visitor.call(
    `/api/users/me/subscriptions/polling/${plan}`,
    {
      gateway: 'test',
      payment_method_nonce: null,
      coupon,
      payment_intent_id: null,
      user_data: {},
      // The US visitor's box ticked for the add-on's renewal, as its page sends it.
      renewal_consent: TICKED_RENEWAL_CONSENT,
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
}

describe('an upsell price test', () => {
  it('exposes at the upsell, not on the landing, sign-up or checkout', async () => {
    const { page, pinned } = visitorDrawn(0.7);
    for (const path of ['/', '/searching', '/signup', '/checkout_v3_tr']) {
      await page(path);
      expect(pinned()).toBeUndefined();
    }
    expect(await exposures()).toEqual([]);
    await page('/upsell_an_private');
    expect(pinned()).toBe('cheap');
    expect(await exposures()).toEqual([{ variant: 'cheap' }]);
  });

  it('the variant shows and charges its tier at 30% off, and refuses the control’s', async () => {
    const { visitor, queue, page } = visitorDrawn(0.7);
    await page('/checkout_v3_tr');
    await visitor.signUp();
    const [main] = await visitor.poll(
      await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)),
    );
    expect(main?.status).toBe('succeeded');
    const html = await page('/upsell_an_private');
    expect(upsellOffers(html)).toEqual([
      { id: 'upsell_monthly_599_usd', coupon: 'upsell_30' },
      { id: 'upsell_quarterly_599_usd', coupon: 'upsell_30' },
    ]);
    const refused = await buyUpsell(visitor, 'upsell_monthly_999_usd', 'upsell_30');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'plan_not_offered' });
    const [upsell] = await visitor.poll(
      await buyUpsell(visitor, 'upsell_monthly_599_usd', 'upsell_30'),
    );
    // 5.99 at 30% off.
    expect(upsell).toMatchObject({ status: 'succeeded', price_with_discount: 4.19 });

    // Revenue per variant: the upsell bought after exposure, not the main plan bought before.
    await consumer().run(asDeliveries(queue.sent));
    const { rows } = await readExperimentRows(stores, 'up-price', 1);
    expect(rows.arms).toEqual([
      expect.objectContaining({ variant: 'cheap', exposed: 1, purchased: 0, upsold: 1 }),
    ]);
    expect(rows.revenue).toEqual([
      { variant: 'cheap', currency: 'USD', revenue_minor: 419, visitors: 1 },
    ]);
  });

  it('the control shows and charges the upsell’s own tier, and refuses the variant’s', async () => {
    const { visitor, page, pinned } = visitorDrawn(0.2);
    const html = await page('/upsell_an_private');
    expect(pinned()).toBe('current');
    expect(upsellOffers(html)).toEqual([
      { id: 'upsell_monthly_999_usd', coupon: 'upsell_30' },
      { id: 'upsell_quarterly_999_usd', coupon: 'upsell_30' },
    ]);
    await visitor.signUp();
    const [main] = await visitor.poll(
      await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)),
    );
    expect(main?.status).toBe('succeeded');
    const refused = await buyUpsell(visitor, 'upsell_monthly_599_usd', 'upsell_30');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'plan_not_offered' });
    const [upsell] = await visitor.poll(
      await buyUpsell(visitor, 'upsell_quarterly_999_usd', 'upsell_30'),
    );
    expect(upsell).toMatchObject({ status: 'succeeded' });
  });
});
