import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordFailedRenewal } from '../../../portal/pay-due';
import { findChargedSubscription } from '../../../portal/store/subscriber-actions';
import { intentIdOfSecret } from '../../../shared/test-gateway-protocol';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { authenticate, CARDS, tokenize } from '../test-gateway/gateway-client';
import {
  boughtWithLink,
  cardPostFromPage,
  countingPortal,
  failedRenewal,
  PAGE_APP,
  recoverLink,
} from './subscriber-fixtures';

/**
 * Item 3's page (docs/payments.md, "Pay what is due"): a failed renewal's recovery link shows the
 * amount due, and `POST /subscription/<token>/pay-due` pays it with a card, through 3-D Secure,
 * once: the product API is asked with the link's Idempotency-Key, the link is spent after, and a
 * link that may not pay never reaches the product API.
 */

beforeEach(async () => {
  await freshStorage();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** The page's script's JSON post, from the page itself unless `site` says otherwise. */
const payFromPage = (
  fetchApp: ReturnType<typeof freshApp>,
  path: string,
  body: unknown,
  site?: string,
) => cardPostFromPage(fetchApp, path, 'pay-due', body, site);

async function paidAt(subscriptionId: string) {
  const due = await env.PORTAL_DB.prepare(
    'SELECT paid_at FROM renewal_dues WHERE subscription_id = ?',
  )
    .bind(subscriptionId)
    .first<{ paid_at: string | null }>();
  return due?.paid_at;
}

describe('a failed renewal’s recovery link', () => {
  it('shows what is due and pays it through 3-D Secure, once; the link is then spent', async () => {
    const { fetchApp, counting, subscriptionId, path } = await failedRenewal();
    const page = await fetchApp(path, { headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Amount due');
    expect(html).toContain('$39.99');

    const nonce = await tokenize(CARDS.alwaysAuthenticate);
    const asked = await payFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: nonce,
    });
    expect(asked.status).toBe(200);
    const challenge = (await asked.json()) as { status: string; payment_intent_secret: string };
    expect(challenge.status).toBe('requires_action');
    expect(await paidAt(subscriptionId)).toBeNull();
    const intentId = intentIdOfSecret(challenge.payment_intent_secret) ?? '';
    await authenticate(intentId, 'complete');

    const settled = await payFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: nonce,
      payment_intent_id: intentId,
    });
    expect(settled.status).toBe(200);
    expect(await settled.json()).toEqual({
      status: 'paid',
      amount: '$39.99',
      card: 'Visa •••• 3184',
    });
    expect(await paidAt(subscriptionId)).toBeTruthy();
    // The page's read has no key; both payment calls of the card carry the worker's one key for
    // the link and that card; one renewal was sent.
    const [readKey, payKey, afterChallengeKey] = counting.keys;
    expect(readKey).toBeNull();
    expect(payKey).toMatch(/^attempt:[0-9a-f]{32}$/);
    expect(afterChallengeKey).toBe(payKey);
    expect(counting.events).toEqual(['renewal']);

    // Replayed: refused before any product API call, as JSON and as the page.
    const replay = await payFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: nonce,
    });
    expect(replay.status).toBe(410);
    expect(await replay.json()).toEqual({ error: 'done_paid' });
    const reopened = await fetchApp(path, { headers: { 'accept-language': 'en' } });
    expect(reopened.status).toBe(410);
    expect(await reopened.text()).toContain('This link has been used');
    expect(counting.calls).toHaveLength(3);
  });

  it('a declined card is answered with its class, and the link still pays with another card', async () => {
    const { fetchApp, subscriptionId, path } = await failedRenewal();
    const declined = await payFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.insufficientFunds),
    });
    expect(declined.status).toBe(402);
    expect(await declined.json()).toEqual({
      status: 'declined',
      decline_code: 'insufficient_funds',
      decline_class: 'insufficient_funds',
    });
    expect(await paidAt(subscriptionId)).toBeNull();
    const paid = await payFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.succeeds),
    });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { status: string }).status).toBe('paid');
  });

  it('pressed twice at once: both answer the one payment, and one renewal is sent', async () => {
    const { fetchApp, counting, path } = await failedRenewal();
    const nonce = await tokenize(CARDS.succeeds);
    const body = { gateway: 'test', payment_method_nonce: nonce };
    const answers = await Promise.all([
      payFromPage(fetchApp, path, body),
      payFromPage(fetchApp, path, body),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { status: string }).status).toBe('paid');
    }
    expect(counting.events).toEqual(['renewal']);
  });
});

/** The page's rows, label to value, as its `<dl>` lists them. */
function rowsOf(html: string): Record<string, string> {
  const rows = html.matchAll(/<dt>([^<]*)<\/dt><dd><bdi[^>]*>([^<]*)<\/bdi><\/dd>/g);
  return Object.fromEntries([...rows].map(([, label, value]) => [label, value]));
}

describe('the subscriber’s page after a failed renewal', () => {
  it('a manage link shows the amount due where the next renewal stood, and where to pay it', async () => {
    const { fetchApp, manage } = await failedRenewal();
    const html = await (
      await fetchApp(manage.pathname, { headers: { 'accept-language': 'en' } })
    ).text();
    const rows = rowsOf(html);
    expect(rows['Amount due']).toBe('$39.99');
    expect(rows).not.toHaveProperty('Next renewal');
    expect(Object.keys(rows).indexOf('Amount due')).toBe(
      Object.keys(rows).indexOf('First payment') + 1,
    );
    expect(html).toContain(
      '<p class="lead">Your last renewal could not be charged. To pay it, open the link in the email we sent you about it.</p>',
    );
    // It still cancels: a subscriber who will not pay may leave.
    expect(html).toContain(`href="${manage.pathname}/cancel"`);
  });

  it('a product API that still names the renewal date: the amount due stands in its place', async () => {
    const counting = countingPortal();
    // As a product API whose read keeps the failed renewal's date beside what it left due.
    const portalFetch: typeof counting.portalFetch = async (request, bindings, ctx) => {
      const answer = await counting.portalFetch(request, bindings, ctx);
      if (request.method !== 'GET' || !new URL(request.url).pathname.startsWith('/subscriptions/'))
        return answer;
      const body = (await answer.json()) as { data: Record<string, unknown> };
      return Response.json({ data: { ...body.data, renews_at: '2026-12-05T10:00:00.000Z' } });
    };
    const fetchApp = freshApp({ portalFetch }, PAGE_APP);
    const { url, subscriptionId } = await boughtWithLink(fetchApp);
    const headers = { 'accept-language': 'en' };
    expect(rowsOf(await (await fetchApp(url.pathname, { headers })).text())).toHaveProperty(
      'Next renewal',
      'December 5, 2026, $39.99',
    );
    const row = await findChargedSubscription(env.PORTAL_DB, subscriptionId);
    if (!row) throw new Error('the purchase made no subscription');
    await recordFailedRenewal(env.PORTAL_DB, row, new Date());
    const rows = rowsOf(await (await fetchApp(url.pathname, { headers })).text());
    expect(rows['Amount due']).toBe('$39.99');
    expect(rows).not.toHaveProperty('Next renewal');
  });

  it('a recovery link shows no next renewal either, and no pointer to the email it came in', async () => {
    const { fetchApp, path } = await failedRenewal();
    const html = await (await fetchApp(path, { headers: { 'accept-language': 'en' } })).text();
    expect(rowsOf(html)).not.toHaveProperty('Next renewal');
    expect(html).not.toContain('open the link in the email');
  });

  it('in every language the page speaks', async () => {
    const { fetchApp, manage } = await failedRenewal();
    const english = await (
      await fetchApp(manage.pathname, { headers: { 'accept-language': 'en' } })
    ).text();
    for (const language of ['de', 'es', 'fr', 'pt', 'ru', 'ar']) {
      const html = await (
        await fetchApp(manage.pathname, { headers: { 'accept-language': language } })
      ).text();
      expect(html, language).toContain(`<html lang="${language}"`);
      const lead = /<p class="lead">([^<]+)<\/p>/.exec(html)?.[1];
      expect(lead, language).toBeTruthy();
      expect(english, language).not.toContain(lead);
    }
  });
});

describe('a link that may not pay', () => {
  it('a manage link, an edited one, a bad body or another site: refused, no product API call', async () => {
    const { fetchApp, counting, subscriptionId, path, manage } = await failedRenewal();
    const body = { gateway: 'test', payment_method_nonce: await tokenize(CARDS.succeeds) };
    expect((await payFromPage(fetchApp, manage.pathname, body)).status).toBe(400);
    const edited = path.replace(/\.(\d+)\./, (_, expiry: string) => `.${Number(expiry) + 1}.`);
    expect(edited).not.toBe(path);
    const editedAnswer = await payFromPage(fetchApp, edited, body);
    expect(editedAnswer.status).toBe(400);
    expect(await editedAnswer.json()).toEqual({ error: 'invalid' });
    for (const bad of [{}, { ...body, amount: 1 }, { gateway: 'test', payment_method_nonce: '' }]) {
      expect((await payFromPage(fetchApp, path, bad)).status).toBe(400);
    }
    expect((await payFromPage(fetchApp, path, body, 'cross-site')).status).toBe(403);
    expect(counting.calls).toEqual([]);
    expect(await paidAt(subscriptionId)).toBeNull();
  });

  it('nothing due: the product API’s 409 is the page’s, and nothing is charged', async () => {
    const counting = countingPortal();
    const fetchApp = freshApp({ portalFetch: counting.portalFetch }, PAGE_APP);
    const { subscriptionId } = await boughtWithLink(fetchApp);
    const signed = await recoverLink(subscriptionId);
    const body = { gateway: 'test', payment_method_nonce: await tokenize(CARDS.succeeds) };
    const answer = await payFromPage(fetchApp, `/subscription/${signed.token}`, body);
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({ error: 'nothing_due' });
    expect(counting.events).toEqual([]);
  });

  it('the recovery page carries the card form’s island with the provider’s settings, analytics off; a manage page none', async () => {
    const { fetchApp, path, manage } = await failedRenewal();
    const html = await (await fetchApp(path, { headers: { 'accept-language': 'en' } })).text();
    const marker = /data-island="PayDue" data-props="([^"]*)"/.exec(html);
    if (!marker?.[1]) throw new Error('no PayDue island on the recovery page');
    const props = JSON.parse(marker[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    expect(props).toMatchObject({
      payPath: `${path}/pay-due`,
      amount: '$39.99',
      settings: { paymentProvider: 'test', stripe: null, btToken: '' },
      copy: { pay: 'Pay $39.99', title: 'Pay what is due' },
    });
    // The page's script boots with no collector and no pixels: an email's page counts nowhere.
    expect(html).toContain('"collector":null');
    expect(html).toContain('"pixels":{"meta":null,"tiktok":null,"googleAds":null');
    expect(html).toContain('hydrateIslands');
    // A manage link's page pays nothing: its one card form updates the card (card-update.test.ts).
    const managed = await (await fetchApp(manage.pathname)).text();
    expect(managed).not.toContain('data-island="PayDue"');
    expect(managed).toContain('data-island="UpdateCard"');
  });
});
