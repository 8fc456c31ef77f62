import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordFailedRenewal } from '../../../portal/pay-due';
import { findChargedSubscription } from '../../../portal/store/subscriber-actions';
import { addUtcMonths } from '../../../shared/plans/renewal';
import { intentIdOfSecret } from '../../../shared/test-gateway-protocol';
import { DEVELOPMENT_SUBSCRIBER_LINK_KEY } from '../../../worker/subscriber-links/link-key';
import { signSubscriberLink } from '../../../worker/subscriber-links/link-token';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { listRows } from '../page-html';
import { authenticate, CARDS, tokenize } from '../test-gateway/gateway-client';
import {
  boughtWithLink,
  cardPostFromPage,
  countingPortal,
  failedRenewal,
  PAGE_APP,
  recoverLink,
  renewalCardOf,
} from './subscriber-fixtures';

/**
 * Paying what a failed renewal left due (docs/payments.md, "Pay what is due"): a recovery link
 * shows the amount due, and `POST /subscription/<token>/pay-due` pays it with a card, through 3-D
 * Secure, once: the product API is asked with the worker's key for the attempt, the link is spent
 * after, and a link that may not pay never reaches the product API. The card that paid is kept
 * for the renewals and the renewal date starts again at the payment; a manage link's page pays
 * it too (its link not spent), and one due is one ledger whichever link pays it.
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

/** The next renewal a due paid at `at` moves to, as the page words it (a monthly plan). */
function renewsAfter(at: string | null | undefined): string {
  const day = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(
    new Date(addUtcMonths(Date.parse(at ?? ''), 1)),
  );
  return `${day}, $39.99`;
}

/** The payments the portal kept of the subscription after its first charge. */
async function paymentsOf(subscriptionId: string) {
  const { results } = await env.PORTAL_DB.prepare(
    'SELECT kind FROM subscription_payments WHERE subscription_id = ?',
  )
    .bind(subscriptionId)
    .all<{ kind: string }>();
  return results.map((row) => row.kind);
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
    const paid = await paidAt(subscriptionId);
    expect(paid).toBeTruthy();
    expect(await settled.json()).toEqual({
      status: 'paid',
      amount: '$39.99',
      card: 'Visa •••• 3184',
      renews: renewsAfter(paid),
    });
    // Each post reads the due first (no key); both payment calls of the card carry the worker's
    // one key for the link and that card; one renewal was sent.
    const [payKey, afterChallengeKey, ...more] = counting.keys.filter((key) => key !== null);
    expect(payKey).toMatch(/^attempt:[0-9a-f]{32}$/);
    expect(afterChallengeKey).toBe(payKey);
    expect(more).toEqual([]);
    expect(counting.keys.filter((key) => key === null)).toHaveLength(3);
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
    expect(counting.calls).toHaveLength(5);
  });

  it('the card that paid is kept for the renewals, and the renewal date starts again at the payment', async () => {
    const { fetchApp, subscriptionId, path, manage } = await failedRenewal();
    expect(await renewalCardOf(subscriptionId)).toBe('4242');
    const paid = await payFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: await tokenize('5555 5555 5555 4444'),
    });
    expect(paid.status).toBe(200);
    const at = await paidAt(subscriptionId);
    expect(await paid.json()).toEqual({
      status: 'paid',
      amount: '$39.99',
      card: 'Mastercard •••• 4444',
      renews: renewsAfter(at),
    });
    expect(await renewalCardOf(subscriptionId)).toBe('4444');
    // The manage link's page renews on that card, on the date the product API now reads.
    const html = await (
      await fetchApp(manage.pathname, { headers: { 'accept-language': 'en' } })
    ).text();
    const rows = listRows(html);
    expect(rows['Next renewal']).toBe(renewsAfter(at));
    expect(rows).not.toHaveProperty('Amount due');
    expect(html).toContain('Mastercard •••• 4444');
    expect(html).not.toContain('data-island="PayDue"');
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

describe('the subscriber’s page after a failed renewal', () => {
  it('a manage link shows the amount due where the next renewal stood, with its own Pay', async () => {
    const { fetchApp, manage } = await failedRenewal();
    const html = await (
      await fetchApp(manage.pathname, { headers: { 'accept-language': 'en' } })
    ).text();
    const rows = listRows(html);
    expect(rows['Amount due']).toBe('$39.99');
    expect(rows).not.toHaveProperty('Next renewal');
    const marker = /data-island="PayDue" data-props="([^"]*)"/.exec(html);
    if (!marker?.[1]) throw new Error('no PayDue island on the manage page');
    const props = JSON.parse(marker[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    expect(props).toMatchObject({
      payPath: `${manage.pathname}/pay-due`,
      amount: '$39.99',
      copy: { pay: 'Pay $39.99' },
    });
    // It pays here, so it sends the subscriber to no email.
    expect(html).not.toContain('open the link in the email');
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
    expect(listRows(await (await fetchApp(url.pathname, { headers })).text())).toHaveProperty(
      'Next renewal',
      'December 5, 2026, $39.99',
    );
    const row = await findChargedSubscription(env.PORTAL_DB, subscriptionId);
    if (!row) throw new Error('the purchase made no subscription');
    await recordFailedRenewal(env.PORTAL_DB, row, new Date());
    const rows = listRows(await (await fetchApp(url.pathname, { headers })).text());
    expect(rows['Amount due']).toBe('$39.99');
    expect(rows).not.toHaveProperty('Next renewal');
  });

  it('a recovery link shows no next renewal either, and no pointer to the email it came in', async () => {
    const { fetchApp, path } = await failedRenewal();
    const html = await (await fetchApp(path, { headers: { 'accept-language': 'en' } })).text();
    expect(listRows(html)).not.toHaveProperty('Next renewal');
    expect(html).not.toContain('open the link in the email');
  });

  it('in every language the page speaks: a link of each opens in it, whatever the browser asks', async () => {
    const { fetchApp, subscriptionId } = await failedRenewal();
    const titleOf = (html: string) =>
      /&quot;title&quot;:&quot;([^&]+)&quot;,&quot;due/.exec(html)?.[1];
    const pageIn = async (language: string) => {
      const look = { theme: 'geozilla', language };
      const { token } = await signSubscriberLink(
        DEVELOPMENT_SUBSCRIBER_LINK_KEY,
        'manage',
        subscriptionId,
        Date.now(),
        look,
      );
      // An English browser: the link's language wins.
      const headers = { 'accept-language': 'en-US,en;q=0.9' };
      return (await fetchApp(`/subscription/${token}`, { headers })).text();
    };
    const english = await pageIn('en');
    expect(titleOf(english)).toBe('Pay what is due');
    for (const language of ['de', 'es', 'fr', 'pt', 'ru', 'ar']) {
      const html = await pageIn(language);
      expect(html, language).toContain(`<html lang="${language}"`);
      const title = titleOf(html);
      expect(title, language).toBeTruthy();
      expect(title, language).not.toBe(titleOf(english));
    }
  });
});

describe('a link that may not pay', () => {
  it('an edited link, a bad body, the card on file from a recovery link or another site: refused, no product API call', async () => {
    const { fetchApp, counting, subscriptionId, path } = await failedRenewal();
    const body = { gateway: 'test', payment_method_nonce: await tokenize(CARDS.succeeds) };
    // A recovery link has no card just saved: only a manage link may ask for the card on file.
    const onFile = await payFromPage(fetchApp, path, { gateway: 'test', card_on_file: true });
    expect(onFile.status).toBe(400);
    expect(await onFile.json()).toEqual({ error: 'invalid_request' });
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

  it('nothing due, on either link: 409 nothing_due after the read, before any charge step; nothing changes', async () => {
    const counting = countingPortal();
    const steps: string[] = [];
    const fetchApp = freshApp(
      { portalFetch: counting.portalFetch, watchCharge: (step) => steps.push(step) },
      PAGE_APP,
    );
    const { subscriptionId, url } = await boughtWithLink(fetchApp);
    counting.calls.length = 0;
    steps.length = 0;
    const signed = await recoverLink(subscriptionId);
    for (const path of [`/subscription/${signed.token}`, url.pathname]) {
      const body = { gateway: 'test', payment_method_nonce: await tokenize(CARDS.succeeds) };
      const answer = await payFromPage(fetchApp, path, body);
      expect(answer.status).toBe(409);
      expect(await answer.json()).toEqual({ error: 'nothing_due' });
    }
    const onFile = await payFromPage(fetchApp, url.pathname, {
      gateway: 'test',
      card_on_file: true,
    });
    expect(onFile.status).toBe(409);
    expect(counting.calls).toEqual(Array(3).fill(`GET /subscriptions/${subscriptionId}`));
    expect(steps).toEqual([]);
    expect(counting.events).toEqual([]);
    expect(await paymentsOf(subscriptionId)).toEqual([]);
    expect(await renewalCardOf(subscriptionId)).toBe('4242');
    // The recovery link was not spent by it.
    expect((await fetchApp(`/subscription/${signed.token}`)).status).toBe(200);
  });

  it('the recovery page carries the card form’s island with the provider’s settings, analytics off', async () => {
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
    // A recovery link updates no card; a manage link's page has both forms while something is due.
    expect(html).not.toContain('data-island="UpdateCard"');
    const managed = await (await fetchApp(manage.pathname)).text();
    expect(managed).toContain('data-island="PayDue"');
    expect(managed).toContain('data-island="UpdateCard"');
  });
});

describe('a manage link pays what is due', () => {
  it('with a new card: paid once, the link still open, the recovery link then has nothing to pay', async () => {
    const { fetchApp, counting, subscriptionId, path, manage } = await failedRenewal();
    const paid = await payFromPage(fetchApp, manage.pathname, {
      gateway: 'test',
      payment_method_nonce: await tokenize('5555 5555 5555 4444'),
    });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ status: 'paid', card: 'Mastercard •••• 4444' });
    expect(await renewalCardOf(subscriptionId)).toBe('4444');
    expect(counting.events).toEqual(['renewal']);
    // Not spent: the page opens, renewing, and may still cancel.
    const page = await fetchApp(manage.pathname, { headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="cancel-subscription"');
    const late = await payFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.succeeds),
    });
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ error: 'nothing_due' });
    expect(await paymentsOf(subscriptionId)).toEqual(['recovery']);
  });

  it('one due, one ledger whichever link pays: a payment unanswered on one link holds the other', async () => {
    let down = true;
    const counting = countingPortal();
    // The product API does not answer the first payment: it may have charged.
    const portalFetch: typeof counting.portalFetch = (request, bindings, ctx) =>
      down && new URL(request.url).pathname.endsWith('/pay-due')
        ? Promise.resolve(new Response('upstream timeout', { status: 504 }))
        : counting.portalFetch(request, bindings, ctx);
    const { fetchApp, subscriptionId, path, manage } = await failedRenewal({ portalFetch });
    const card = { gateway: 'test', payment_method_nonce: await tokenize(CARDS.succeeds) };
    const unknown = await payFromPage(fetchApp, manage.pathname, card);
    expect(unknown.status).toBe(503);
    down = false;
    const other = await payFromPage(fetchApp, path, {
      gateway: 'test',
      payment_method_nonce: await tokenize('5555 5555 5555 4444'),
    });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ error: 'purchase_confirming' });
    expect(await paidAt(subscriptionId)).toBeNull();
  });

  it('a card updated while something is due: the answer says so, and the card on file pays it once', async () => {
    const { fetchApp, counting, subscriptionId, manage } = await failedRenewal();
    const updated = await cardPostFromPage(fetchApp, manage.pathname, 'card', {
      gateway: 'test',
      payment_method_nonce: await tokenize('5555 5555 5555 4444'),
    });
    expect(await updated.json()).toEqual({
      status: 'updated',
      card: 'Mastercard •••• 4444',
      due: '$39.99',
    });
    expect(await paidAt(subscriptionId)).toBeNull();
    const onFile = { gateway: 'test', card_on_file: true };
    const paid = await payFromPage(fetchApp, manage.pathname, onFile);
    expect(paid.status).toBe(200);
    const at = await paidAt(subscriptionId);
    expect(await paid.json()).toEqual({
      status: 'paid',
      amount: '$39.99',
      card: 'Mastercard •••• 4444',
      renews: renewsAfter(at),
    });
    // Pressed again: nothing more is due, nothing more is charged.
    const again = await payFromPage(fetchApp, manage.pathname, onFile);
    expect(again.status).toBe(409);
    expect(counting.events).toEqual(['renewal']);
    expect(await paymentsOf(subscriptionId)).toEqual(['recovery']);
    // An update with nothing due says nothing is.
    const later = await cardPostFromPage(fetchApp, manage.pathname, 'card', {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.succeeds),
    });
    expect(await later.json()).toEqual({ status: 'updated', card: 'Visa •••• 4242', due: null });
  });
});
