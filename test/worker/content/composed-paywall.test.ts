import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { checkFullDocument } from '../../../worker/config/document';
import { parsePins } from '../../../worker/experiments/assignment/assign';
import { experimentTriggers } from '../../../worker/experiments/config/triggers';
import {
  experimentDesign,
  metricsAfter,
} from '../../../worker/experiments/design/experiment-design';
import { SPRING_PAY_FLOWS, SPRING_PAYWALL } from '../../fixtures/composed-paywall';
import { unsigned } from '../../fixtures/signed-cookies';
import {
  CHROME,
  emptyExperiments,
  PRICE_TEST,
  putExperiments,
  shardRows,
} from '../experiments/experiment-fixtures';
import { freshApp, putConfig } from '../fetch-app';
import { islandProps } from '../page-html';
import { checkoutVisitor, TICKED_RENEWAL_CONSENT } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';

/**
 * A paywall a marketer composed (`content.composed`, from checkout_v3_tr) in a flow works as the
 * paywall it starts from: a price test exposes its visitors on it, each arm is sold its own plans
 * there and no other, and its payment leads on from its own path.
 */

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  await putConfig('split', {
    version: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 1, flow: 'spring_pay' } },
  });
  await putConfig('routing', {
    ...DEFAULT_ROUTING,
    routes: [{ id: 'default', flow: 'spring_pay' }],
  });
  await putConfig('content', SPRING_PAYWALL);
  await putConfig('flows', SPRING_PAY_FLOWS);
  await putExperiments({});
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

let addresses = 0;

/** A new visitor drawn at `random` (0.2 → current, 0.7 → cheap), walking the flow. */
function visitorDrawn(random: number) {
  const fetchApp = freshApp({ random: () => random }, { PORTAL_POLLING_DELAY_MS: '0' });
  addresses += 1;
  const visitor = checkoutVisitor({ fetchApp, ip: `198.51.100.${addresses}` });
  const page = async (path: string) => {
    const response = await visitor.call(path, undefined, { 'user-agent': CHROME });
    expect(response.status).toBe(200);
    return response.text();
  };
  const pinned = () => parsePins(unsigned(visitor.cookies.get('gf_x'))).get('pw-price');
  return { visitor, page, pinned };
}

const exposures = () =>
  shardRows<{ variant: string }>(
    "SELECT variant FROM xp_exposures WHERE experiment = 'pw-price' ORDER BY variant",
  );

/** The plans the paywall's picker shows. */
const shownPlans = (html: string) =>
  (islandProps(html, 'PlanChoice') as { options: { details: { id: string } }[] }).options.map(
    ({ details }) => details.id,
  );

/** Charges `plan` to a new `card` of the visitor's, as the checkout's Pay does. */
async function charge(
  visitor: ReturnType<typeof checkoutVisitor>,
  plan: string,
  card: string = CARDS.succeeds,
) {
  return visitor.call(
    `/api/users/me/subscriptions/polling/${plan}`,
    {
      gateway: 'test',
      payment_method_nonce: await visitor.tokenize(card),
      coupon: null,
      payment_intent_id: null,
      user_data: {},
      renewal_consent: TICKED_RENEWAL_CONSENT,
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
}

async function expectNotOffered(charged: Response) {
  expect(charged.status).toBe(403);
  expect(await charged.json()).toMatchObject({ code: 'plan_not_offered' });
}

describe('a price test on a composed paywall', () => {
  it('exposes its visitors on the composed paywall, not before', async () => {
    await putExperiments({ 'pw-price': PRICE_TEST });
    const { page, pinned } = visitorDrawn(0.7);
    for (const path of ['/', '/searching', '/signup']) {
      await page(path);
      expect(pinned()).toBeUndefined();
    }
    expect(await exposures()).toEqual([]);
    const html = await page('/spring_paywall');
    expect(html).toContain('What people say');
    expect(pinned()).toBe('cheap');
    expect(await exposures()).toEqual([{ variant: 'cheap' }]);
    expect(shownPlans(html)[0]).toBe('monthly_3d_intro_usd');
  });

  it('sells each arm its own plans there and refuses the other arm’s', async () => {
    await putExperiments({ 'pw-price': PRICE_TEST });
    const cheap = visitorDrawn(0.7);
    await cheap.page('/spring_paywall');
    await cheap.visitor.signUp();
    await expectNotOffered(await charge(cheap.visitor, 'monthly_7d_intro_usd'));
    const [bought] = await cheap.visitor.poll(await charge(cheap.visitor, 'monthly_3d_intro_usd'));
    expect(bought?.status).toBe('succeeded');

    const current = visitorDrawn(0.2);
    expect(shownPlans(await current.page('/spring_paywall'))).toContain('monthly_7d_intro_usd');
    expect(current.pinned()).toBe('current');
    await current.visitor.signUp();
    await expectNotOffered(await charge(current.visitor, 'monthly_3d_intro_usd'));
  });

  it('is one the validator finds a trigger for, on the composed paywall, without a warning', () => {
    const checked = checkFullDocument({
      split: DEFAULT_SPLIT,
      flows: SPRING_PAY_FLOWS,
      routing: { ...DEFAULT_ROUTING, routes: [{ id: 'default', flow: 'spring_pay' }] },
      content: SPRING_PAYWALL,
      experiments: {
        version: 'e1',
        experiments: { 'pw-price': { ...PRICE_TEST, audience: { routes: ['default'] } } },
      },
    });
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    // Nor does it warn that the flow lacks the paywall its plans are offered on.
    expect(checked.ok ? checked.value.warnings : []).toEqual([]);
  });
});

describe('a price test’s results on a composed paywall', () => {
  it('show the metrics a visitor exposed there can still move, as on its from', () => {
    const routing = { ...DEFAULT_ROUTING, routes: [{ id: 'default', flow: 'spring_pay' }] };
    const context = { flows: SPRING_PAY_FLOWS, routing, content: SPRING_PAYWALL };
    const triggers = experimentTriggers('pw-price', PRICE_TEST, context);
    expect(triggers.get('default')).toEqual({
      index: 3,
      screen: 'spring_paywall',
      slot: 'paywall',
    });
    const shown = experimentDesign('pw-price', PRICE_TEST, triggers).metricsShown;
    expect(shown).toEqual(metricsAfter([{ screen: 'checkout_v3_tr' }]));
    expect(shown).not.toContain('signup');
  });
});

describe('where a composed paywall leads', () => {
  it('posts to its own path, and its payment goes on to the next screen of its flow', async () => {
    const { page } = visitorDrawn(0.5);
    const html = await page('/spring_paywall?gclid=g-1');
    const payment = islandProps(html, 'CheckoutPayment') as {
      page: { next: string; declined: string };
    };
    expect(payment.page.next).toBe('/upsell_an_private?gclid=g-1');
    expect(payment.page.declined).toBe('/payment_declined?gclid=g-1');
    // The analytics know it as the checkout it behaves as.
    expect(html).toContain('"screen":"checkout_v3_tr"');
  });

  it('charges a declined card nothing, then sells its plan once to the next card', async () => {
    const { visitor, page } = visitorDrawn(0.5);
    await page('/spring_paywall?gclid=g-1');
    await visitor.signUp();
    const [declined] = await visitor.poll(
      await charge(visitor, 'monthly_7d_intro_usd', CARDS.genericDecline),
    );
    expect(declined?.status).toBe('failed');
    const [bought] = await visitor.poll(await charge(visitor, 'monthly_7d_intro_usd'));
    expect(bought?.status).toBe('succeeded');
    const { results } = await env.PORTAL_DB.prepare(
      'SELECT status, plan_id FROM subscriptions WHERE user_id = (SELECT user_id FROM subscriptions WHERE id = ?) ORDER BY created_at, rowid',
    )
      .bind(bought?.subscription_id ?? '')
      .all<{ status: string; plan_id: string }>();
    expect(results).toEqual([
      { status: 'declined', plan_id: 'monthly_7d_intro_usd' },
      { status: 'active', plan_id: 'monthly_7d_intro_usd' },
    ]);
  });

  it("sends a declined payment's Try again back to it, with script or without", async () => {
    const { page } = visitorDrawn(0.5);
    const declined = await page('/payment_declined?gclid=g-1');
    expect(islandProps(declined, 'TryAgain')).toMatchObject({
      next: '/spring_paywall?gclid=g-1',
    });
    // The form as it posts before the island hydrated, or with no script.
    const form = await freshApp()('/payment_declined?gclid=g-1', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://funnel.test',
        'Sec-Fetch-Site': 'same-origin',
      },
      body: '',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/spring_paywall?gclid=g-1');
  });
});
