import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signatureHeaderFor } from '../../../shared/api/hook-signature';
import { LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';
import { subscriberCallPath, subscriberCallText } from '../../../shared/api/subscriber-calls';
import { intentIdOfSecret } from '../../../shared/test-gateway-protocol';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { signSubscriberLink } from '../../../worker/subscriber-links/link-token';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { callPortal } from '../portal/portal-client';
import { authenticate, CARDS, tokenize } from '../test-gateway/gateway-client';
import {
  boughtWithLink,
  cardPostFromPage,
  countingPortal,
  PAGE_APP,
  renewalCardOf,
} from './subscriber-fixtures';

/**
 * The subscriber page's "Update card" (docs/payments.md, "Update the card"): a manage link's
 * `POST /subscription/<token>/card` makes a new card the subscription's through the product API's
 * signed `POST /subscriptions/{id}/payment-method`, through 3-D Secure, once per card, charging
 * nothing and leaving the link open; a link that may not update never reaches the product API.
 */

beforeEach(async () => {
  await freshStorage();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** A bought subscription, the receipt's manage link, and the product API's calls from here on. */
async function bought(portalFetch?: (counting: PortalFetch) => PortalFetch) {
  const counting = countingPortal();
  const fetchApp = freshApp(
    { portalFetch: portalFetch ? portalFetch(counting.portalFetch) : counting.portalFetch },
    PAGE_APP,
  );
  const { url, subscriptionId } = await boughtWithLink(fetchApp);
  counting.calls.length = 0;
  counting.keys.length = 0;
  return { fetchApp, counting, subscriptionId, path: url.pathname };
}

/** The page's script's JSON post, from the page itself unless `site` says otherwise. */
const cardFromPage = (
  fetchApp: ReturnType<typeof freshApp>,
  path: string,
  body: unknown,
  site?: string,
) => cardPostFromPage(fetchApp, path, 'card', body, site);

async function chargesOf(subscriptionId: string) {
  const row = await env.PORTAL_DB.prepare(
    `SELECT COUNT(*) AS n FROM subscriptions WHERE user_id =
       (SELECT user_id FROM subscriptions WHERE id = ?)`,
  )
    .bind(subscriptionId)
    .first<{ n: number }>();
  return row?.n;
}

describe('a manage link’s Update card', () => {
  it('shows the card row with Update card, and the form’s island with the provider’s settings', async () => {
    const { fetchApp, path } = await bought();
    const html = await (await fetchApp(path, { headers: { 'accept-language': 'en' } })).text();
    const marker = /data-island="UpdateCard" data-props="([^"]*)"/.exec(html);
    if (!marker?.[1]) throw new Error('no UpdateCard island on the manage page');
    const props = JSON.parse(marker[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    expect(props).toMatchObject({
      cardPath: `${path}/card`,
      card: 'Visa •••• 4242',
      settings: { paymentProvider: 'test', stripe: null, btToken: '' },
      copy: { open: 'Update card', save: 'Save card', paidWith: 'Paid with' },
    });
    expect(props.copy.notAvailable).toMatch(/write to support@/);
    expect(html).toContain('"collector":null');
  });

  it('updates through 3-D Secure, once, charging nothing; the read shows the new card; the link stays open', async () => {
    const { fetchApp, counting, subscriptionId, path } = await bought();
    const charges = await chargesOf(subscriptionId);
    const nonce = await tokenize(CARDS.alwaysAuthenticate);
    const asked = await cardFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: nonce,
    });
    expect(asked.status).toBe(200);
    const challenge = (await asked.json()) as { status: string; payment_intent_secret: string };
    expect(challenge.status).toBe('requires_action');
    expect(await renewalCardOf(subscriptionId)).toBe('4242');
    const intentId = intentIdOfSecret(challenge.payment_intent_secret) ?? '';
    await authenticate(intentId, 'complete');
    const body = { gateway: 'test', payment_method_nonce: nonce, payment_intent_id: intentId };
    const settled = await cardFromPage(fetchApp, path, body);
    expect(settled.status).toBe(200);
    // Nothing is due: the page has nothing to offer to pay with it.
    expect(await settled.json()).toEqual({ status: 'updated', card: 'Visa •••• 3184', due: null });
    // Pressed again: the same answer, the same key, nothing changed twice.
    const again = await cardFromPage(fetchApp, path, body);
    expect(await again.json()).toEqual({ status: 'updated', card: 'Visa •••• 3184', due: null });
    expect(await renewalCardOf(subscriptionId)).toBe('3184');
    // Each update that went through reads what is still due (no key).
    const keys = counting.keys.filter((key) => key !== null);
    expect(counting.keys.filter((key) => key === null)).toHaveLength(2);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^attempt:[0-9a-f]{32}$/);
    expect(counting.calls[0]).toBe(`POST /subscriptions/${subscriptionId}/payment-method`);
    expect(counting.events).toEqual([]);
    expect(await chargesOf(subscriptionId)).toBe(charges);
    // The link is not spent: the page opens with the new card, and may still cancel.
    const page = await (await fetchApp(path, { headers: { 'accept-language': 'en' } })).text();
    expect(page).toContain('Visa •••• 3184');
    expect(page).toContain('id="cancel-subscription"');
  });

  it('a failed challenge or a declined card leaves the old card, with the decline’s class', async () => {
    const { fetchApp, subscriptionId, path } = await bought();
    const nonce = await tokenize(CARDS.alwaysAuthenticate);
    const asked = await cardFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: nonce,
    });
    const { payment_intent_secret } = (await asked.json()) as { payment_intent_secret: string };
    const intentId = intentIdOfSecret(payment_intent_secret) ?? '';
    await authenticate(intentId, 'fail');
    const failed = await cardFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: nonce,
      payment_intent_id: intentId,
    });
    expect(failed.status).toBe(402);
    expect(await failed.json()).toEqual({
      status: 'declined',
      decline_code: 'authentication_required',
      decline_class: 'authentication_failed',
    });
    const declined = await cardFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.insufficientFunds),
    });
    expect(declined.status).toBe(402);
    expect(((await declined.json()) as { decline_class: string }).decline_class).toBe(
      'insufficient_funds',
    );
    expect(await renewalCardOf(subscriptionId)).toBe('4242');
  });

  it('a canceled subscription: 409 with its reason, the card unchanged', async () => {
    const { fetchApp, subscriptionId, path } = await bought();
    await env.PORTAL_DB.prepare('UPDATE subscriptions SET canceled_at = ? WHERE id = ?')
      .bind(new Date().toISOString(), subscriptionId)
      .run();
    const body = { gateway: 'test', payment_method_nonce: await tokenize(CARDS.succeeds) };
    const answer = await cardFromPage(fetchApp, path, body);
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({ error: 'subscription_ended' });
    expect(await renewalCardOf(subscriptionId)).toBe('4242');
  });
});

describe('a link or a product API that may not update', () => {
  it('edited, expired, a recovery link, a bad body or another site: refused, no product API call', async () => {
    const { fetchApp, counting, subscriptionId, path } = await bought();
    const body = { gateway: 'test', payment_method_nonce: await tokenize(CARDS.succeeds) };
    const edited = path.replace(/\.(\d+)\./, (_, expiry: string) => `.${Number(expiry) + 1}.`);
    expect(edited).not.toBe(path);
    const editedAnswer = await cardFromPage(fetchApp, edited, body);
    expect(editedAnswer.status).toBe(400);
    expect(await editedAnswer.json()).toEqual({ error: 'invalid' });
    const key = env.SUBSCRIBER_LINK_KEY ?? '';
    const old = await signSubscriberLink(
      key,
      'manage',
      subscriptionId,
      Date.now() - 401 * 86_400_000,
    );
    const expired = await cardFromPage(fetchApp, `/subscription/${old.token}`, body);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({ error: 'expired' });
    const recover = await signSubscriberLink(key, 'recover', subscriptionId, Date.now());
    expect((await cardFromPage(fetchApp, `/subscription/${recover.token}`, body)).status).toBe(400);
    for (const bad of [{}, { ...body, card: 'x' }, { gateway: 'test', payment_method_nonce: '' }]) {
      expect((await cardFromPage(fetchApp, path, bad)).status).toBe(400);
    }
    expect((await cardFromPage(fetchApp, path, body, 'cross-site')).status).toBe(403);
    expect(counting.calls).toEqual([]);
    expect(await renewalCardOf(subscriptionId)).toBe('4242');
  });

  it('a product API without the call (404, 501): "not available", logged as drift', async () => {
    for (const status of [404, 501]) {
      await freshStorage();
      const lacking =
        (inner: PortalFetch): PortalFetch =>
        (request, bindings, ctx) =>
          new URL(request.url).pathname.endsWith('/payment-method')
            ? Promise.resolve(Response.json({ errors: { messages: ['Not found'] } }, { status }))
            : inner(request, bindings, ctx);
      const { fetchApp, path } = await bought(lacking);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const body = { gateway: 'test', payment_method_nonce: await tokenize(CARDS.succeeds) };
      const answer = await cardFromPage(fetchApp, path, body);
      expect(answer.status).toBe(501);
      expect(await answer.json()).toEqual({ error: 'not_available' });
      expect(warn.mock.calls.flat().join(' ')).toContain('portal_call_missing');
    }
  });
});

describe('the embedded portal’s POST /subscriptions/{id}/payment-method', () => {
  /** The call as the worker signs it, with `key` as its Idempotency-Key. */
  async function signedCall(subscriptionId: string, body: unknown, key: string, sign = true) {
    const path = subscriberCallPath('cardUpdate', subscriptionId);
    const text = JSON.stringify(body);
    const secret = env.LIFECYCLE_HMAC_KEY ?? '';
    const signature = await signatureHeaderFor(
      secret,
      Math.floor(Date.now() / 1000),
      subscriberCallText('POST', path, text),
    );
    return callPortal(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': key,
        ...(sign ? { [LIFECYCLE_SIGNATURE_HEADER]: signature } : {}),
      },
      body: text,
    });
  }

  it('answers only the worker’s signature; one key is one card; the read shows it', async () => {
    const { subscriptionId } = await bought();
    const nonce = await tokenize(CARDS.succeeds);
    const body = { gateway: 'test', payment_method_nonce: nonce };
    expect((await signedCall(subscriptionId, body, 'k1', false)).status).toBe(401);
    const updated = await signedCall(subscriptionId, body, 'k1');
    expect(updated.status).toBe(200);
    expect(await updated.json()).toEqual({
      data: {
        status: 'updated',
        card_brand: 'visa',
        card_last4: '4242',
        payment_intent_secret: null,
      },
    });
    // The same key with another card is a conflict, not a second change.
    const other = {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.alwaysAuthenticate),
    };
    const conflict = await signedCall(subscriptionId, other, 'k1');
    expect(conflict.status).toBe(409);
    expect(await renewalCardOf(subscriptionId)).toBe('4242');
    const row = await env.PORTAL_DB.prepare('SELECT payment_method FROM subscriptions WHERE id = ?')
      .bind(subscriptionId)
      .first<{ payment_method: string }>();
    expect(row?.payment_method).toBe(nonce);
  });
});

describe('card testing through a subscriber’s link (docs/payments.md, "Card testing")', () => {
  const DECLINING = [
    CARDS.genericDecline,
    CARDS.insufficientFunds,
    CARDS.expired,
    CARDS.incorrectCvc,
    CARDS.fraudulent,
  ];
  /** The page's script posting `card` under the key it gives one card (cardUpdate:<nonce>). */
  async function postCard(fetchApp: ReturnType<typeof freshApp>, path: string, nonce: string) {
    return fetchApp(`${path}/card`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
        'idempotency-key': `cardUpdate:${nonce}`,
      },
      body: JSON.stringify({ gateway: 'test', payment_method_nonce: nonce }),
    });
  }

  it('five cards declined in an hour stop the link’s card posts before the product API', async () => {
    const { fetchApp, counting, subscriptionId, path } = await bought();
    for (const number of DECLINING) {
      const nonce = await tokenize(number);
      expect((await postCard(fetchApp, path, nonce)).status).toBe(402);
      // The same card posted again (a second press) is the same attempt: counted once.
      if (number !== DECLINING.at(-1)) {
        expect((await postCard(fetchApp, path, nonce)).status).toBe(402);
      }
    }
    const asked = counting.calls.length;
    const good = await postCard(fetchApp, path, await tokenize(CARDS.succeeds));
    expect(good.status).toBe(429);
    expect(await good.json()).toEqual({ error: 'payment_rate_limited' });
    expect(Number(good.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(counting.calls.length).toBe(asked);
    expect(await renewalCardOf(subscriptionId)).toBe('4242');
  });

  it('four declines leave the fifth card through; one card declined five times is stopped on every link', async () => {
    const first = await bought();
    for (const number of DECLINING.slice(0, 4)) {
      expect((await postCard(first.fetchApp, first.path, await tokenize(number))).status).toBe(402);
    }
    const updated = await postCard(first.fetchApp, first.path, await tokenize(CARDS.succeeds));
    expect(updated.status).toBe(200);
    expect(await renewalCardOf(first.subscriptionId)).toBe('4242');

    // One card guessed at from two subscriptions' links (declined once above, four times here):
    // the card's own count stops it, while the second link may still take another card.
    const second = await bought();
    for (let n = 0; n < 4; n += 1) {
      const nonce = await tokenize(CARDS.incorrectCvc);
      expect((await postCard(second.fetchApp, second.path, nonce)).status).toBe(402);
    }
    const again = await postCard(second.fetchApp, second.path, await tokenize(CARDS.incorrectCvc));
    expect(again.status).toBe(429);
    const other = await postCard(second.fetchApp, second.path, await tokenize(CARDS.succeeds));
    expect(other.status).toBe(200);
  });
});
