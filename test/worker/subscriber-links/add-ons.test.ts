import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { developmentKit } from '../../../worker/dev/kit';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { verifySubscriberLink } from '../../../worker/subscriber-links/link-token';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { TICKED_RENEWAL_CONSENT } from '../purchases/checkout-visitor';
import { boughtWithLink, countingPortal, PAGE_APP, recoverLink } from './subscriber-fixtures';

/**
 * A renewing add-on on the subscriber's page (docs/payments.md, "The subscriber's page"): the
 * buyer's upsell is its own subscription in the product API, listed under the plan the manage
 * link names, and cancelled or refunded on its own without spending the link. The link names
 * the plan only, so an add-on its read does not list, a post from another site and a recovery
 * link act on nothing.
 */

let warnSpy: ReturnType<typeof vi.spyOn>;

beforeEach(async () => {
  await freshStorage();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  warnSpy = vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const ADD_ON_PLAN = 'upsell_monthly_999_usd';

/** A form post of the page, as the browser sends it from the page itself unless `site` says. */
const formPost = (body = '', site = 'same-origin'): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': site },
  body,
});

const english = { headers: { 'accept-language': 'en' } };

/** The portal's row of a subscription: whether it was canceled or refunded. */
function portalRow(subscriptionId: string) {
  return env.PORTAL_DB.prepare('SELECT canceled_at, refunded_at FROM subscriptions WHERE id = ?')
    .bind(subscriptionId)
    .first<{ canceled_at: string | null; refunded_at: string | null }>();
}

/**
 * A buyer of the 7-day trial with its manage link, who then took the monthly add-on with the
 * card on file, as its page's one-click offer does; the product API's calls counted from there.
 */
async function boughtWithAddOn(portalFetch?: PortalFetch) {
  const counting = countingPortal();
  const fetchApp = freshApp({ portalFetch: portalFetch ?? counting.portalFetch }, PAGE_APP);
  const bought = await boughtWithLink(fetchApp);
  const answer = await bought.visitor.call(`/api/users/me/subscriptions/${ADD_ON_PLAN}`, {
    gateway: 'test',
    payment_method_nonce: null,
    // At the offer's price, as the upsell screen shows it (30% off: 6.99, and 6.99 each month).
    coupon: 'upsell_30',
    payment_intent_id: null,
    user_data: { price: '9.99', currency: 'USD' },
    renewal_consent: TICKED_RENEWAL_CONSENT,
  });
  expect(answer.status).toBe(200);
  const { data } = (await answer.json()) as {
    data: { subscription_id: string; receipt: { renews_at: string } };
  };
  counting.calls.length = 0;
  counting.keys.length = 0;
  counting.events.length = 0;
  const path = bought.url.pathname;
  const addOnPath = `${path}/add-ons/${data.subscription_id}`;
  return { ...bought, fetchApp, counting, path, addOnPath, addOnId: data.subscription_id, data };
}

/** The POST calls the product API was asked, by path. */
const postsOf = (calls: readonly string[]) => calls.filter((call) => call.startsWith('POST'));

describe('the subscriber’s page lists the add-on', () => {
  it('under the plan: its name, price, next renewal and first payment, with its own actions', async () => {
    const { fetchApp, path, addOnPath, data } = await boughtWithAddOn();
    const page = await fetchApp(path, english);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<h2 class="receipt__title" id="add-on-0">Privacy pack, 1 month</h2>');
    const renews = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
      new Date(data.receipt.renews_at),
    );
    expect(html).toContain(`${renews}, $6.99`);
    expect(html).toContain(`href="${addOnPath}/cancel"`);
    expect(html).toContain('aria-describedby="add-on-0"');
    expect(html).toContain(`action="${addOnPath}/guarantee"`);
    // The plan's own rows and actions are still there.
    expect(html).toContain('$39.99');
    expect(html).toContain(`href="${path}/cancel"`);
  });

  it('the plan’s cancel confirm says the add-on renews on its own, and cancels only the plan', async () => {
    const { fetchApp, path, subscriptionId, addOnId, counting } = await boughtWithAddOn();
    const confirm = await (await fetchApp(`${path}/cancel`, english)).text();
    expect(confirm).toContain(
      'Your add-on “Privacy pack, 1 month” is not part of this: it renews on its own.',
    );
    expect((await fetchApp(`${path}/cancel`, formPost())).status).toBe(200);
    expect(postsOf(counting.calls)).toEqual([`POST /subscriptions/${subscriptionId}/cancel`]);
    expect((await portalRow(subscriptionId))?.canceled_at).toBeTruthy();
    expect((await portalRow(addOnId))?.canceled_at).toBeNull();
  });
});

describe('an add-on’s own actions', () => {
  it('cancels only the add-on; the link still opens and the plan still renews', async () => {
    const { fetchApp, path, addOnPath, subscriptionId, addOnId, counting, url } =
      await boughtWithAddOn();
    const confirm = await fetchApp(`${addOnPath}/cancel`, english);
    expect(confirm.status).toBe(200);
    const question = await confirm.text();
    expect(question).toContain('Cancel this add-on?');
    expect(question).toContain(`action="${addOnPath}/cancel"`);
    expect(question).toContain(`href="${path}"`);

    const done = await fetchApp(`${addOnPath}/cancel`, formPost());
    expect(done.status).toBe(200);
    const said = await done.text();
    expect(said).toContain('Your add-on is canceled');
    expect(said).toContain(`id="back-to-subscription" href="${path}"`);
    expect(postsOf(counting.calls)).toEqual([`POST /subscriptions/${addOnId}/cancel`]);
    const token = url.pathname.split('/')[2] ?? '';
    const verdict = await verifySubscriberLink(env.SUBSCRIBER_LINK_KEY ?? '', token, Date.now());
    const linkId = verdict.ok ? verdict.link.linkId : 'none';
    expect(counting.keys.filter(Boolean)).toEqual([`subscriptionCancel:${linkId}:${addOnId}`]);
    expect(counting.events).toEqual(['cancellation']);
    expect((await portalRow(addOnId))?.canceled_at).toBeTruthy();
    expect((await portalRow(subscriptionId))?.canceled_at).toBeNull();

    const again = await fetchApp(path, english);
    expect(again.status).toBe(200);
    const html = await again.text();
    expect(html).toContain('Next renewal');
    expect(html).toContain(`href="${path}/cancel"`);
    expect(html).not.toContain(`href="${addOnPath}/cancel"`);
    expect(html).toContain('Canceled: it will not renew.');
    // A second press answers the page, where the add-on shows it is canceled; nothing more asked.
    const second = await fetchApp(`${addOnPath}/cancel`, formPost());
    expect(second.status).toBe(303);
    expect(second.headers.get('location')).toBe(path);
    expect(postsOf(counting.calls)).toHaveLength(1);
  });

  it('the add-on’s money back: one confirm with its amount, then only it refunded and ended', async () => {
    const { fetchApp, path, addOnPath, subscriptionId, addOnId, counting } =
      await boughtWithAddOn();
    const asked = await fetchApp(`${addOnPath}/guarantee`, formPost());
    expect(asked.status).toBe(200);
    const confirm = await asked.text();
    expect(confirm).toContain('$6.99, your whole first payment for “Privacy pack, 1 month”');
    expect(confirm).toContain('<input type="hidden" name="confirm" value="refund"/>');
    expect(postsOf(counting.calls)).toEqual([]);

    const claimed = await fetchApp(`${addOnPath}/guarantee`, formPost('confirm=refund'));
    expect(claimed.status).toBe(200);
    const said = await claimed.text();
    expect(said).toContain('$6.99 goes back to your card');
    expect(said).toContain(`href="${path}"`);
    expect(postsOf(counting.calls)).toEqual([`POST /subscriptions/${addOnId}/guarantee-claim`]);
    expect(counting.events).toEqual(['refund', 'cancellation']);
    expect((await portalRow(addOnId))?.refunded_at).toBeTruthy();
    expect(await portalRow(subscriptionId)).toEqual({ canceled_at: null, refunded_at: null });

    const page = await fetchApp(path, english);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(`action="${addOnPath}/guarantee"`);
    // Claimed once: the confirm posted again is outside the terms, and asks nothing more.
    const replay = await fetchApp(`${addOnPath}/guarantee`, formPost('confirm=refund'));
    expect(replay.status).toBe(422);
    expect(postsOf(counting.calls)).toHaveLength(1);
  });
});

describe('an add-on action the link may not take', () => {
  it('a forged id, another buyer’s, or the plan’s own: 404, with no action asked', async () => {
    const { fetchApp, path, subscriptionId, counting } = await boughtWithAddOn();
    const stranger = await boughtWithLink(fetchApp);
    counting.calls.length = 0;
    for (const id of ['sub_forged', stranger.subscriptionId, subscriptionId]) {
      const cancel = await fetchApp(`${path}/add-ons/${id}/cancel`, formPost());
      expect(cancel.status).toBe(404);
      const claim = await fetchApp(`${path}/add-ons/${id}/guarantee`, formPost('confirm=refund'));
      expect(claim.status).toBe(404);
      expect((await fetchApp(`${path}/add-ons/${id}/cancel`)).status).toBe(404);
    }
    expect(postsOf(counting.calls)).toEqual([]);
    expect(await portalRow(stranger.subscriptionId)).toEqual({
      canceled_at: null,
      refunded_at: null,
    });
  });

  it('a post from another site is refused before the product API, and nothing changes', async () => {
    const { fetchApp, addOnPath, addOnId, counting } = await boughtWithAddOn();
    for (const site of ['cross-site', 'same-site']) {
      expect((await fetchApp(`${addOnPath}/cancel`, formPost('', site))).status).toBe(403);
      const claim = await fetchApp(`${addOnPath}/guarantee`, formPost('confirm=refund', site));
      expect(claim.status).toBe(403);
    }
    expect(counting.calls).toEqual([]);
    expect(await portalRow(addOnId)).toEqual({ canceled_at: null, refunded_at: null });
  });

  it('a recovery link shows the add-on but manages nothing', async () => {
    const { fetchApp, subscriptionId, addOnId, counting } = await boughtWithAddOn();
    const recover = await recoverLink(subscriptionId);
    const path = `/subscription/${recover.token}`;
    const page = await (await fetchApp(path, english)).text();
    expect(page).toContain('Privacy pack, 1 month');
    expect(page).not.toContain('/add-ons/');
    counting.calls.length = 0;
    const cancel = await fetchApp(`${path}/add-ons/${addOnId}/cancel`, formPost());
    expect(cancel.status).toBe(400);
    const claim = await fetchApp(`${path}/add-ons/${addOnId}/guarantee`, formPost());
    expect(claim.status).toBe(400);
    expect(counting.calls).toEqual([]);
    expect(await portalRow(addOnId)).toEqual({ canceled_at: null, refunded_at: null });
  });
});

/** The embedded portal, its read's `add_ons` replaced by `addOns` (undefined: left out). */
function readWithAddOns(addOns: unknown): PortalFetch {
  return async (request, bindings, ctx) => {
    const answer = await developmentKit.portal(request, bindings, ctx);
    const path = new URL(request.url).pathname;
    if (request.method !== 'GET' || !/^\/subscriptions\/[^/]+$/.test(path)) return answer;
    const body = (await answer.json()) as { data: Record<string, unknown> };
    if (addOns === undefined) delete body.data.add_ons;
    else body.data.add_ons = addOns;
    return Response.json(body, { status: answer.status });
  };
}

describe('a product API that names its add-ons otherwise', () => {
  it('without add_ons, or with a list the page cannot read, the page opens all the same', async () => {
    for (const addOns of [undefined, 'none', [{ plan_id: ADD_ON_PLAN, status: 'active' }]]) {
      const { fetchApp, path, addOnId } = await boughtWithAddOn(readWithAddOns(addOns));
      const page = await fetchApp(path, english);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('$39.99');
      expect(html).not.toContain('/add-ons/');
      // An add-on the read does not list cannot be acted on.
      const cancel = await fetchApp(`${path}/add-ons/${addOnId}/cancel`, formPost());
      expect(cancel.status).toBe(404);
      expect((await portalRow(addOnId))?.canceled_at).toBeNull();
    }
    // Each read the page could not take as the contract says is noted as drift (`portal_shape`).
    const warned = warnSpy.mock.calls.flat().join(' ');
    expect(warned).toContain('"field":"data.add_ons"');
    expect(warned).toContain('"field":"data.add_ons[].subscription_id"');
  });

  it('keeps the add-ons it can read, beside one it cannot', async () => {
    const odd = { plan_id: ADD_ON_PLAN, status: 'active' };
    const good = {
      subscription_id: 'sub_listed',
      plan_id: ADD_ON_PLAN,
      status: 'canceled',
      currency: 'USD',
      paid_amount: 9.99,
      charged_at: new Date().toISOString(),
      renewal_amount: null,
      renews_at: null,
      ends_at: '2027-01-05T10:00:00.000Z',
    };
    const { fetchApp, path } = await boughtWithAddOn(readWithAddOns([odd, good]));
    const html = await (await fetchApp(path, english)).text();
    expect(html).toContain('Privacy pack, 1 month');
    expect(html).toContain('January 5, 2027');
    expect(html).toContain('Canceled: it will not renew. You keep access until January 5, 2027.');
  });
});
