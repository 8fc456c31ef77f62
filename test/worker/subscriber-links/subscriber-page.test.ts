import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signatureHeaderFor } from '../../../shared/api/hook-signature';
import { LIFECYCLE_PATH, LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';
import { subscriberCallText } from '../../../shared/api/subscriber-calls';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../../shared/console-api/experiment-results';
import { developmentKit } from '../../../worker/dev/kit';
import type { ExperimentStores } from '../../../worker/experiments/store/experiment-stores';
import { recordSaveOffer } from '../../../worker/experiments/store/record-save-offer';
import { EMBEDDED_PORTAL_ORIGIN } from '../../../worker/portal-client/portal-call';
import { DEVELOPMENT_SUBSCRIBER_LINK_KEY } from '../../../worker/subscriber-links/link-key';
import { signSubscriberLink } from '../../../worker/subscriber-links/link-token';
import { saveOfferTest } from '../../fixtures/save-offer-test';
import { freshApp, ORIGIN, putConfig } from '../fetch-app';
import { aBuyer, remember } from '../lifecycle/lifecycle-fixtures';
import { boughtWithLink, countingPortal, pageApp } from './subscriber-fixtures';

/**
 * The subscriber's page (`/subscription/<token>`, worker/subscriber-links/): opened from the
 * receipt's manage link, it shows the subscription the product API reads, cancels it with one
 * confirm, and claims the money-back guarantee, each a signed call to the embedded portal, which
 * tells the worker's lifecycle hook. An edited, expired or used link, a post from another site and
 * a burst from one address are refused, with no product API call.
 */

type Line = Record<string, unknown>;
let logSpy: ReturnType<typeof vi.spyOn>;
const lines = (): Line[] =>
  logSpy.mock.calls.map(([line]: unknown[]) => {
    try {
      return JSON.parse(String(line)) as Line;
    } catch {
      return {};
    }
  });

/**
 * The tests share storage, each with its own: its purchase and link, its apps' addresses
 * (pageApp), and a save offer test's name; the config they write is taken out after each.
 */
beforeEach(() => {
  logSpy = vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(['content', 'experiments'].map((key) => env.FUNNEL_CONFIG.delete(key)));
});

/** A form post of the page, as the browser sends it from the page itself. */
const formPost = (site = 'same-origin', body = ''): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': site },
  body,
});

/** The money-back claim's confirm, as its form posts it (CLAIM_CONFIRM_FIELD). */
const confirmPost = (site = 'same-origin') => formPost(site, 'confirm=refund');

async function portalRow(subscriptionId: string) {
  return env.PORTAL_DB.prepare('SELECT canceled_at, refunded_at FROM subscriptions WHERE id = ?')
    .bind(subscriptionId)
    .first<{ canceled_at: string | null; refunded_at: string | null }>();
}

describe('the receipt’s manage link', () => {
  it('opens the subscription: plan, first payment, next renewal, card; private and uncached', async () => {
    const fetchApp = pageApp();
    const { url } = await boughtWithLink(fetchApp);
    const page = await fetchApp(url.pathname, { headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.getSetCookie()).toEqual([]);
    const html = await page.text();
    expect(html).toMatch(/<title>Your subscription · Geozilla<\/title>/);
    expect(html).toContain('$6.99');
    expect(html).toContain('$39.99');
    expect(html).toContain('Visa •••• 4242');
    expect(html).toContain(`href="${url.pathname}/cancel"`);
    expect(html).toContain(`action="${url.pathname}/guarantee"`);
  });

  it('cancels in one confirm; the portal keeps it, the lifecycle hook records it, the link is spent', async () => {
    const fetchApp = pageApp();
    const { url, subscriptionId } = await boughtWithLink(fetchApp);
    // The ledger knows the purchase, as the queue consumer tells it seconds after the charge.
    await remember(aBuyer({ subscriptionId, paidMinor: 699 }));
    const confirm = await fetchApp(`${url.pathname}/cancel`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain(`action="${url.pathname}/cancel"`);

    const done = await fetchApp(`${url.pathname}/cancel`, formPost());
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Your subscription is canceled');
    expect((await portalRow(subscriptionId))?.canceled_at).toBeTruthy();
    const hook = lines().find((line) => line.path === LIFECYCLE_PATH);
    expect(hook).toMatchObject({ method: 'POST', status: 200 });

    const again = await fetchApp(url.pathname);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This link has been used');
  });

  it('claims the money-back guarantee in one confirm: the first charge back, the subscription ended', async () => {
    const fetchApp = pageApp();
    const { url, subscriptionId } = await boughtWithLink(fetchApp);
    await remember(aBuyer({ subscriptionId, paidMinor: 699 }));
    const asked = await fetchApp(`${url.pathname}/guarantee`, {
      ...formPost(),
      headers: { ...formPost().headers, 'accept-language': 'en' },
    });
    expect(asked.status).toBe(200);
    const confirm = await asked.text();
    expect(confirm).toMatch(/<title>Get your money back\? · Geozilla<\/title>/);
    expect(confirm).toContain('$6.99, your whole first payment, goes back to the card');
    expect(confirm).toContain(`action="${url.pathname}/guarantee"`);
    expect(confirm).toContain('<input type="hidden" name="confirm" value="refund"/>');
    expect(confirm).toContain(`href="${url.pathname}"`);
    expect((await portalRow(subscriptionId))?.refunded_at).toBeNull();

    const done = await fetchApp(`${url.pathname}/guarantee`, confirmPost());
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('$6.99 goes back to your card');
    const row = await portalRow(subscriptionId);
    expect(row?.refunded_at).toBeTruthy();
    expect(row?.canceled_at).toBeTruthy();
    const hooks = lines().filter((line) => line.path === LIFECYCLE_PATH);
    expect(hooks.map((line) => line.status)).toEqual([200, 200]);
  });
});

describe('the purchase’s brand and language after the sale', () => {
  /** What a page says that names another brand than `theme`: its name, site or address. */
  const otherBrandIn = (html: string, theme: string) =>
    Object.entries(DEFAULT_BRANDS)
      .filter(([other]) => other !== theme)
      .flatMap(([, brand]) => [brand.name, brand.host, brand.supportEmail])
      .filter((sign) => html.includes(sign));

  const BUYERS = [
    ['brainbloom', 'de', 'de-DE,de;q=0.9'],
    ['findo', 'pt', 'pt-BR,pt;q=0.9'],
    ['family-locator', 'es', 'es-ES,es;q=0.9'],
    ['geozilla', 'ar', 'ar'],
  ] as const;

  it.each(BUYERS)(
    'a %s buyer in %s: every page after the sale wears them, whatever browser opens it',
    async (theme, language, acceptLanguage) => {
      const fetchApp = pageApp();
      const { url, subscriptionId, email } = await boughtWithLink(fetchApp, {
        page: `${ORIGIN}/checkout_v3_tr?theme=${theme}`,
        acceptLanguage,
      });
      expect(url.pathname).toMatch(new RegExp(`\\.${theme}~${language}\\.[A-Za-z0-9_-]{43}$`));
      await remember(aBuyer({ subscriptionId, paidMinor: 699 }));
      const recovery = await signSubscriberLink(
        DEVELOPMENT_SUBSCRIBER_LINK_KEY,
        'recover',
        subscriptionId,
        Date.now(),
        { theme, language },
      );
      // Opened from an email on another device, in English, some with another theme in the address.
      const english = { 'accept-language': 'en-US,en;q=0.9' };
      const pages: [string, RequestInit][] = [
        [url.pathname, { headers: english }],
        [`${url.pathname}?theme=findo`, { headers: english }],
        [`${url.pathname}/cancel`, { headers: english }],
        // The money-back claim's confirm.
        [
          `${url.pathname}/guarantee`,
          { ...formPost(), headers: { ...formPost().headers, ...english } },
        ],
        [`/subscription/${recovery.token}`, { headers: english }],
        // The cancel done, then the spent link's page.
        [
          `${url.pathname}/cancel`,
          { ...formPost(), headers: { ...formPost().headers, ...english } },
        ],
        [url.pathname, { headers: english }],
      ];
      // The contract page from the footer of any of the brand's pages, in the buyer's browser:
      // both forms, the withdrawal's acknowledgement and the link asked for by email.
      const buyers = { 'accept-language': acceptLanguage };
      const declared = (body: string): RequestInit => ({
        ...formPost('same-origin', body),
        headers: { ...formPost().headers, ...buyers },
      });
      const fields = new URLSearchParams({ email, reference: subscriptionId }).toString();
      pages.push(
        [`/contract/withdraw?theme=${theme}`, { headers: buyers }],
        [`/contract/cancel?theme=${theme}`, { headers: buyers }],
        [`/contract/withdraw?theme=${theme}`, declared(fields)],
        [`/contract/link?theme=${theme}`, declared(new URLSearchParams({ email }).toString())],
      );
      const brand = DEFAULT_BRANDS[theme];
      for (const [path, init] of pages) {
        const page = await fetchApp(path, init);
        const html = await page.text();
        const what = `${init.method ?? 'GET'} ${path} (${page.status})`;
        expect(html, what).toContain(`<html lang="${language}"`);
        expect(html, what).toMatch(new RegExp(`<title>[^<]+ · ${brand.name}</title>`));
        expect(html, what).toContain(`mailto:${brand.supportEmail}`);
        expect(otherBrandIn(html, theme), what).toEqual([]);
      }
    },
  );

  it('tells the product API the purchase’s brand and language with each action, none without a look', async () => {
    const counting = countingPortal();
    const fetchApp = pageApp({ portalFetch: counting.portalFetch });
    const { url, subscriptionId } = await boughtWithLink(fetchApp, {
      page: `${ORIGIN}/checkout_v3_tr?theme=findo`,
      acceptLanguage: 'pt',
    });
    const plain = await signSubscriberLink(
      DEVELOPMENT_SUBSCRIBER_LINK_KEY,
      'manage',
      subscriptionId,
      Date.now(),
    );
    await remember(aBuyer({ subscriptionId, paidMinor: 699 }));
    counting.calls.length = 0;
    counting.bodies.length = 0;
    expect((await fetchApp(`${url.pathname}/cancel`, formPost())).status).toBe(200);
    const claimed = await fetchApp(`/subscription/${plain.token}/guarantee`, confirmPost());
    expect(claimed.status).toBe(200);
    const posts = counting.calls
      .map((call, index) => [call, counting.bodies[index]] as const)
      .filter(([call]) => call.startsWith('POST'));
    expect(posts).toEqual([
      [
        `POST /subscriptions/${subscriptionId}/cancel`,
        JSON.stringify({ source: 'subscriber_page', brand: 'findo', language: 'pt' }),
      ],
      [
        `POST /subscriptions/${subscriptionId}/guarantee-claim`,
        JSON.stringify({ source: 'subscriber_page' }),
      ],
    ]);
  });

  it('a link without a look, as made before, wears the browser’s language and the default brand', async () => {
    const fetchApp = pageApp();
    const { subscriptionId } = await boughtWithLink(fetchApp);
    const { token } = await signSubscriberLink(
      DEVELOPMENT_SUBSCRIBER_LINK_KEY,
      'manage',
      subscriptionId,
      Date.now(),
    );
    const page = await fetchApp(`/subscription/${token}`, {
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toMatch(/<title>[^<]+ · Geozilla<\/title>/);
  });

  it('a look edited into a link opens nothing, and wears only what it claims', async () => {
    const fetchApp = pageApp();
    const { url } = await boughtWithLink(fetchApp, {
      page: `${ORIGIN}/checkout_v3_tr?theme=brainbloom`,
      acceptLanguage: 'de',
    });
    const forged = url.pathname.replace('.brainbloom~de.', '.findo~de.');
    const page = await fetchApp(forged, { headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(400);
    expect(await page.text()).not.toContain('Brainbloom');
  });
});

describe('the money-back claim’s confirm', () => {
  it('the first press refunds nothing; the confirm refunds once; a replayed confirm nothing more', async () => {
    const counting = countingPortal();
    const fetchApp = pageApp({ portalFetch: counting.portalFetch });
    const { url, subscriptionId } = await boughtWithLink(fetchApp);
    counting.calls.length = 0;
    const claim = `POST /subscriptions/${subscriptionId}/guarantee-claim`;

    // Pressed twice, and posted as JSON: each time the question, only a read asked.
    for (const press of [formPost(), formPost(), { ...formPost(), body: '{"confirm":"refund"}' }]) {
      const asked = await fetchApp(`${url.pathname}/guarantee`, press);
      expect(asked.status).toBe(200);
      expect(await asked.text()).toContain('id="confirm-guarantee"');
    }
    expect(counting.calls).toEqual(Array(3).fill(`GET /subscriptions/${subscriptionId}`));
    expect(counting.events).toEqual([]);
    expect((await portalRow(subscriptionId))?.refunded_at).toBeNull();
    const shown = lines().filter((line) => line.detail === 'guarantee_confirm_shown');
    expect(shown).toHaveLength(3);

    counting.calls.length = 0;
    expect((await fetchApp(`${url.pathname}/guarantee`, confirmPost())).status).toBe(200);
    expect(counting.calls).toEqual([claim]);
    expect(counting.events).toEqual(['refund', 'cancellation']);
    const refunded = lines().filter((line) => line.event === 'subscriber_refunded');
    expect(refunded).toHaveLength(1);

    // The confirm again (a reload, a second tab), and the question again: the link is spent.
    for (const replay of [confirmPost(), formPost()]) {
      const again = await fetchApp(`${url.pathname}/guarantee`, replay);
      expect(again.status).toBe(410);
      expect(await again.text()).toContain('The money-back guarantee was claimed with it');
    }
    expect(counting.calls).toEqual([claim]);
    expect(counting.events).toEqual(['refund', 'cancellation']);
  });

  it('a confirm from another site is refused before the product API, and nothing is refunded', async () => {
    const counting = countingPortal();
    const fetchApp = pageApp({ portalFetch: counting.portalFetch });
    const { url, subscriptionId } = await boughtWithLink(fetchApp);
    counting.calls.length = 0;
    for (const site of ['cross-site', 'same-site']) {
      const foreign = await fetchApp(`${url.pathname}/guarantee`, confirmPost(site));
      expect(foreign.status).toBe(403);
    }
    expect(counting.calls).toEqual([]);
    expect((await portalRow(subscriptionId))?.refunded_at).toBeNull();
  });

  it('outside the guarantee’s terms the first press says so (422), and asks nothing more', async () => {
    const counting = countingPortal();
    const fetchApp = pageApp({ portalFetch: counting.portalFetch });
    const { url, subscriptionId } = await boughtWithLink(fetchApp);
    // Charged 31 days ago: the guarantee's 30 days have passed.
    const charged = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await env.PORTAL_DB.prepare('UPDATE subscriptions SET created_at = ? WHERE id = ?')
      .bind(charged, subscriptionId)
      .run();
    counting.calls.length = 0;
    const asked = await fetchApp(`${url.pathname}/guarantee`, formPost());
    expect(asked.status).toBe(422);
    expect(await asked.text()).toContain('The money-back guarantee does not apply');
    expect(counting.calls).toEqual([`GET /subscriptions/${subscriptionId}`]);
  });
});

describe('a link that may not act', () => {
  it('edited, expired or used: a clear page, and no product API call', async () => {
    const counting = countingPortal();
    const fetchApp = pageApp({ portalFetch: counting.portalFetch });
    const { url, subscriptionId } = await boughtWithLink(fetchApp);
    const token = url.pathname.split('/')[2] ?? '';
    const edited = token.replace(
      /\.(\d+)\./,
      (_, expiry: string) => `.${Number(expiry) + 86_400}.`,
    );
    const editedPage = await fetchApp(`/subscription/${edited}`);
    expect(editedPage.status).toBe(400);
    expect(await editedPage.text()).toContain('This link does not work');
    expect((await fetchApp(`/subscription/${edited}/cancel`, formPost())).status).toBe(400);

    const key = env.SUBSCRIBER_LINK_KEY ?? '';
    const old = await signSubscriberLink(
      key,
      'manage',
      subscriptionId,
      Date.now() - 401 * 86_400_000,
    );
    const expired = await fetchApp(`/subscription/${old.token}`);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired');
    expect(counting.calls).toEqual([]);

    expect((await fetchApp(`${url.pathname}/cancel`, formPost())).status).toBe(200);
    expect(counting.calls).toEqual([`POST /subscriptions/${subscriptionId}/cancel`]);
    for (const replay of [
      () => fetchApp(`${url.pathname}/cancel`, formPost()),
      () => fetchApp(`${url.pathname}/guarantee`, formPost()),
      () => fetchApp(url.pathname),
    ]) {
      expect((await replay()).status).toBe(410);
    }
    expect(counting.calls).toHaveLength(1);
  });

  it('while SUBSCRIBER_LINK_KEY is rotated, the links signed before still open; no other key does', async () => {
    const fetchApp = pageApp();
    const { url } = await boughtWithLink(fetchApp);
    const path = url.pathname;
    const rotated = (previous?: string) =>
      pageApp(
        {},
        {
          SUBSCRIBER_LINK_KEY: 'the-new-link-secret',
          ...(previous ? { SUBSCRIBER_LINK_KEY_PREVIOUS: previous } : {}),
        },
      );
    // The link in the receipt was signed with the key the worker had at the purchase.
    const kept = await rotated(env.SUBSCRIBER_LINK_KEY)(path, {
      headers: { 'accept-language': 'en' },
    });
    expect(kept.status).toBe(200);
    for (const previous of [undefined, 'another-secret']) {
      const refused = await rotated(previous)(path);
      expect(refused.status, String(previous)).toBe(400);
    }
  });

  it('a post from another site is refused, and nothing is canceled', async () => {
    const fetchApp = pageApp();
    const { url, subscriptionId } = await boughtWithLink(fetchApp);
    const foreign = await fetchApp(`${url.pathname}/cancel`, formPost('cross-site'));
    expect(foreign.status).toBe(403);
    expect((await portalRow(subscriptionId))?.canceled_at).toBeNull();
  });

  it('a burst from one address is cut short with 429', async () => {
    // Every request of the app from its one address (pageApp).
    const fetchApp = pageApp();
    const { url } = await boughtWithLink(fetchApp);
    const statuses: number[] = [];
    for (let n = 0; n < 31; n += 1) {
      const page = await fetchApp(url.pathname);
      statuses.push(page.status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('the save offer', () => {
  it('is shown once before the cancel, with the cancel still one tap away', async () => {
    await putConfig('content', {
      screens: {},
      saveOffer: {
        title: { en: 'Stay for half price' },
        text: { en: 'Write to us and your next month is 50% off.' },
      },
    });
    const fetchApp = pageApp({}, { CONFIG_CACHE_TTL_MS: '0' });
    const { url } = await boughtWithLink(fetchApp);
    const first = await (await fetchApp(`${url.pathname}/cancel`)).text();
    expect(first).toContain('Stay for half price');
    expect(first).toContain(`href="${url.pathname}?offer=shown"`);
    expect(first).toContain(`action="${url.pathname}/cancel"`);
    const overview = await (await fetchApp(`${url.pathname}?offer=shown`)).text();
    expect(overview).toContain(`href="${url.pathname}/cancel?offer=shown"`);
    const second = await (await fetchApp(`${url.pathname}/cancel?offer=shown`)).text();
    expect(second).not.toContain('Stay for half price');
    expect(second).toContain(`action="${url.pathname}/cancel"`);
  });
});

describe('a save offer test (layer "subscriber")', () => {
  let offerTests = 0;

  /**
   * Content with an offer and its `half_price` variant, and a test whose arms weigh `weights`,
   * named for this test alone: its counts are the test's own.
   */
  async function offerTest(weights: { control: number; half: number }) {
    offerTests += 1;
    const experiment = `save-half-${offerTests}`;
    await putConfig('content', {
      screens: {},
      saveOffer: {
        title: { en: 'Stay with us' },
        text: { en: 'Write to us for a free month.' },
        variants: { half_price: { title: { en: 'Stay for half price' } } },
      },
    });
    await putConfig('experiments', {
      version: 'test',
      experiments: { [experiment]: saveOfferTest(weights) },
    });
    const fetchApp = pageApp({}, { CONFIG_CACHE_TTL_MS: '0' });
    return { fetchApp, experiment, ...(await boughtWithLink(fetchApp)) };
  }

  it('shows the arm’s offer, its title over the offer’s, and logs each outcome once, as counted', async () => {
    const { fetchApp, url, experiment } = await offerTest({ control: 0, half: 1 });
    const page = await (await fetchApp(`${url.pathname}/cancel`)).text();
    expect(page).toContain('Stay for half price');
    expect(page).toContain('Write to us for a free month.');
    expect(page).not.toContain('Stay with us');
    const logged = (name: string) => lines().filter((line: Line) => line.event === name);
    const inHalf = expect.objectContaining({ experiment, phase: 1, variant: 'half' });
    expect(logged('save_offer_shown')).toEqual([inHalf]);
    expect(logged('save_offer_chose_keep')).toEqual([]);
    await fetchApp(`${url.pathname}?offer=shown`);
    expect(logged('save_offer_chose_keep')).toEqual([inHalf]);
    // Reloads count nothing more, and log nothing more.
    await fetchApp(`${url.pathname}/cancel`);
    await fetchApp(`${url.pathname}?offer=shown`);
    expect(logged('save_offer_shown')).toHaveLength(1);
    expect(logged('save_offer_chose_keep')).toHaveLength(1);
  });

  it('counts the showing, the keep and the cancel once each in the results, reloads or not', async () => {
    const { fetchApp, url, experiment } = await offerTest({ control: 0, half: 1 });
    const saveOfferOf = async () => {
      const response = await fetchApp(`${CONSOLE_EXPERIMENTS_PATH}/${experiment}/results`);
      expect(response.status).toBe(200);
      const answer = (await response.json()) as ExperimentResultsAnswer;
      return { answer, half: answer.variants.find((arm) => arm.variant === 'half')?.saveOffer };
    };
    await fetchApp(`${url.pathname}/cancel`);
    await fetchApp(`${url.pathname}/cancel`);
    await fetchApp(`${url.pathname}?offer=shown`);
    await fetchApp(`${url.pathname}?offer=shown`);
    const kept = await saveOfferOf();
    expect(kept.answer.phases).toEqual([1]);
    expect(kept.answer.reach.exposed).toBe(1);
    expect(kept.half).toMatchObject({ shown: 1, choseKeep: 1, cancelled: 0 });
    expect(kept.half?.kept).toMatchObject({ count: 1, rate: 1 });
    // Kept, then cancelled after all: no longer kept.
    await fetchApp(`${url.pathname}/cancel?offer=shown`);
    expect((await fetchApp(`${url.pathname}/cancel`, formPost())).status).toBe(200);
    const cancelled = await saveOfferOf();
    expect(cancelled.half).toMatchObject({ shown: 1, choseKeep: 1, cancelled: 1 });
    expect(cancelled.half?.kept).toMatchObject({ count: 0, rate: 0 });
  });

  it('a shard that cannot count loses that count, never throws, and says so in the log', async () => {
    const errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = {
      legacy: env.EVENTS_DB,
      shards: {
        idFromName: (name: string) => name,
        get: () => ({ recordSaveOffers: () => Promise.reject(new Error('shard down')) }),
      },
    } as unknown as ExperimentStores;
    const event = {
      experiment: 'save-half',
      phase: 1,
      variant: 'half',
      subscriptionId: 'sub_1',
      outcome: 'shown',
      at: 0,
    } as const;
    await expect(recordSaveOffer(failing, event, 'req_1')).resolves.toBeUndefined();
    const errors = errorSpy.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(errors).toContainEqual(
      expect.objectContaining({ error: 'save_offer_count_failed', id: 'req_1', outcome: 'shown' }),
    );
  });

  it('the control’s subscriber sees the offer as written', async () => {
    const { fetchApp, url } = await offerTest({ control: 1, half: 0 });
    const page = await (await fetchApp(`${url.pathname}/cancel`)).text();
    expect(page).toContain('Stay with us');
    expect(page).not.toContain('Stay for half price');
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: 'save_offer_shown', variant: 'control' }),
    );
  });
});

describe('the embedded portal’s subscriber calls', () => {
  it('answer only the worker’s signature: unsigned or signed for another path, 401', async () => {
    const fetchApp = pageApp();
    const { subscriptionId } = await boughtWithLink(fetchApp);
    const path = `/subscriptions/${subscriptionId}/cancel`;
    const body = JSON.stringify({ source: 'subscriber_page' });
    const key = env.LIFECYCLE_HMAC_KEY ?? '';
    const t = Math.floor(Date.now() / 1000);
    const otherPath = subscriberCallText('POST', `${path}x`, body);
    for (const signature of [undefined, await signatureHeaderFor(key, t, otherPath)]) {
      const headers = new Headers({ 'content-type': 'application/json' });
      if (signature) headers.set(LIFECYCLE_SIGNATURE_HEADER, signature);
      const request = new Request(`${EMBEDDED_PORTAL_ORIGIN}${path}`, {
        method: 'POST',
        headers,
        body,
      });
      const answer = await developmentKit.portal(request, env, undefined);
      expect(answer.status).toBe(401);
    }
    expect((await portalRow(subscriptionId))?.canceled_at).toBeNull();
  });
});

describe('the checkout, before the purchase (California’s automatic renewal law)', () => {
  const ONLINE = 'Cancel anytime online with the link in your receipt';
  const IN_APP = 'Cancel anytime in the app&#x27;s settings';
  const checkoutTerms = async (bindings: Partial<Cloudflare.Env>) => {
    const page = await freshApp({}, bindings)('/checkout_v3_tr', {
      headers: { 'accept-language': 'en', 'CF-IPCountry': 'US' },
    });
    expect(page.status).toBe(200);
    // The terms under Pay, as the visitor reads them before paying.
    return (await page.text()).match(/<p [^>]*class="pay-card__terms">(.*?)<\/p>/)?.[1] ?? '';
  };

  it('says the subscription is cancelled online when the receipt will carry the link', async () => {
    const terms = await checkoutTerms({});
    expect(terms).toContain(ONLINE);
    expect(terms).not.toContain(IN_APP);
  });

  it('says the app and the support address only when no link can be made', async () => {
    for (const bindings of [
      { SUBSCRIBER_LINK_KEY: undefined },
      // The repository's development key is refused outside development: no link, no promise.
      { ENVIRONMENT: 'production' },
    ]) {
      const terms = await checkoutTerms(bindings);
      expect(terms, JSON.stringify(bindings)).toContain(IN_APP);
      expect(terms, JSON.stringify(bindings)).not.toContain(ONLINE);
    }
  });
});
