import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_DENIED as DENIED, CONSENT_GRANTED as GRANTED } from '../fixtures/google-consent';
import { runAxe, seriousViolations } from './a11y-checks';
import { type BrowserSession, EXPECTED_THIRD_PARTY, startBrowserSession } from './harness';
import {
  inspectLayout,
  layoutProblems,
  newRenderContext,
  openSettledScreen,
  type RenderWidth,
  VIEWPORT_HEIGHT,
  walkKeyboard,
} from './layout-checks';
import { continueAfterReceipt, payButton, typeTestCard } from './money-path';
import { PATIENCE_MS } from './patience';
import {
  analyticsStarted,
  interactive,
  signupField,
  submitEmail,
  uniqueEmail,
} from './visitor-steps';

/**
 * The ad pixels and the consent banner in Chromium. The worker runs with a Meta pixel,
 * a TikTok pixel and a Google Ads tag configured, and no country (so consent is asked). The
 * networks' script URLs are answered by fakes that behave like the real SDKs' queue-consuming
 * interface: each takes over its base code's queue and reports every call it gets to the test,
 * with the document it runs in. What the worker does with each answer (the banner in each
 * page's HTML, the consent cookie, the ad cookies, a Decline, an answer posted without script,
 * a country that needs none): test/worker/pixels/; the banner and the pixels' code, Decline
 * and Google Consent Mode for every answer among them: test/unit/pixels/.
 */

const BINDINGS = {
  META_PIXEL_ID: '1234567890',
  TIKTOK_PIXEL_ID: 'CTIKTOK123',
  GOOGLE_ADS_ID: 'AW-555',
  GOOGLE_ADS_CONVERSION_LABEL: 'buyLabel',
};

const PIXEL_SCRIPTS = {
  meta: 'https://connect.facebook.net/en_US/fbevents.js',
  tiktok: 'https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=CTIKTOK123&lib=ttq',
  google: 'https://www.googletagmanager.com/gtag/js?id=AW-555',
} as const;
type Network = keyof typeof PIXEL_SCRIPTS;

const REPORT = '__pixelCall';
/**
 * Each fake calls REPORT with every call it gets, and REPLAYED once it has replayed its page's
 * queue, each with its document's time origin.
 */
const REPLAYED = '__pixelReplayed';

/** fbevents.js: sets fbq.callMethod, then replays fbq.queue through it. */
const FAKE_FBEVENTS = `(() => {
  const fbq = window.fbq;
  fbq.callMethod = (...args) =>
    window.${REPORT}('meta', JSON.parse(JSON.stringify(args)), performance.timeOrigin);
  for (const args of fbq.queue.splice(0)) fbq.callMethod(...args);
  window.${REPLAYED}('meta', performance.timeOrigin);
})();`;

/** events.js: replaces ttq's deferring methods, then replays the [method, ...args] queued. */
const FAKE_TIKTOK = `(() => {
  const ttq = window[window.TiktokAnalyticsObject];
  const queued = ttq.splice(0);
  for (const method of ttq.methods) {
    ttq[method] = (...args) =>
      window.${REPORT}('tiktok', JSON.parse(JSON.stringify([method, ...args])), performance.timeOrigin);
  }
  window.${REPORT}('tiktok', ['loaded', Object.keys(ttq._i)], performance.timeOrigin);
  for (const [method, ...args] of queued) ttq[method](...args);
  window.${REPLAYED}('tiktok', performance.timeOrigin);
})();`;

/** gtag.js: reads the commands in dataLayer (Arguments objects), then hears each pushed one. */
const FAKE_GTAG = `(() => {
  const layer = window.dataLayer;
  const hear = (entry) => {
    if (Object.prototype.toString.call(entry) !== '[object Arguments]') return;
    window.${REPORT}('google', JSON.parse(JSON.stringify([...entry])), performance.timeOrigin);
  };
  for (const entry of layer) hear(entry);
  window.${REPLAYED}('google', performance.timeOrigin);
  layer.push = (...entries) => { entries.forEach(hear); return Array.prototype.push.apply(layer, entries); };
})();`;

const FAKES: Record<Network, string> = {
  meta: FAKE_FBEVENTS,
  tiktok: FAKE_TIKTOK,
  google: FAKE_GTAG,
};

interface PixelLog {
  /** Script URLs the pages asked for, in order. */
  requested: string[];
  /** Every call each fake SDK got, on every page of the context, with its page's document. */
  calls: Record<Network, { document: number; call: unknown[] }[]>;
  /** The documents (their time origins) on which each fake has replayed its page's queue. */
  replayed: Record<Network, number[]>;
}

/** Answers the three CDN URLs with the fakes, or refuses them as a blocker would. */
async function servePixels(
  context: BrowserContext,
  mode: 'fakes' | 'blocked' = 'fakes',
): Promise<PixelLog> {
  const log: PixelLog = {
    requested: [],
    calls: { meta: [], tiktok: [], google: [] },
    replayed: { meta: [], tiktok: [], google: [] },
  };
  await context.exposeFunction(REPORT, (network: Network, call: unknown[], document: number) => {
    log.calls[network].push({ document, call });
  });
  await context.exposeFunction(REPLAYED, (network: Network, document: number) => {
    log.replayed[network].push(document);
  });
  const networks = Object.entries(PIXEL_SCRIPTS) as [Network, string][];
  await context.route(
    (url) => networks.some(([, script]) => script === url.href),
    (route) => {
      const url = route.request().url();
      log.requested.push(url);
      const network = networks.find(([, script]) => script === url)?.[0] ?? 'meta';
      if (mode === 'blocked') return route.abort('blockedbyclient');
      return route.fulfill({ contentType: 'text/javascript', body: FAKES[network] });
    },
  );
  return log;
}

const banner = (page: Page) => page.getByRole('region', { name: 'Cookie choice' });

/**
 * Each of the three fakes has run on the page's current document and replayed every call the
 * page had queued for it (the fakes report those in order, then that they are done): what the
 * page set up before its scripts arrived has all been heard.
 */
async function everyQueueReplayed(page: Page, log: PixelLog): Promise<void> {
  const document = await documentOf(page);
  await expect
    .poll(() => Object.values(log.replayed).every((documents) => documents.includes(document)), {
      timeout: PATIENCE_MS,
    })
    .toBe(true);
}

/**
 * `window.dataLayer` as gtag.js reads it, each command a plain array (js's date as text); null
 * where gtag was never set up.
 */
async function dataLayer(page: Page): Promise<unknown[][] | null> {
  return page.evaluate(() => {
    const layer = (window as { dataLayer?: ArrayLike<unknown>[] }).dataLayer;
    return layer
      ? JSON.parse(JSON.stringify(Array.from(layer, (entry) => Array.from(entry))))
      : null;
  });
}

async function consentCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === 'gf_consent')?.value;
}

/** Each pixel's setup calls, made once per page. */
const SET_UP_ONCE = {
  meta: [
    ['init', BINDINGS.META_PIXEL_ID],
    ['track', 'PageView'],
  ],
  tiktok: [['loaded', [BINDINGS.TIKTOK_PIXEL_ID]], ['page']],
  google: [['config', BINDINGS.GOOGLE_ADS_ID]],
};

/** The calls each fake heard on `document`, or on every page of the context. */
function callsOn(log: PixelLog, document?: number): Record<Network, unknown[][]> {
  const heard = (network: Network) =>
    log.calls[network]
      .filter((entry) => document === undefined || entry.document === document)
      .map((entry) => entry.call);
  return { meta: heard('meta'), tiktok: heard('tiktok'), google: heard('google') };
}

/** Page views and set-up calls of one page visit, as each fake heard them. */
function setupCalls(log: PixelLog, document: number) {
  const { meta, tiktok, google } = callsOn(log, document);
  return {
    meta: meta.filter(([method]) => method === 'init' || method === 'track'),
    tiktok: tiktok.filter(([method]) => method === 'loaded' || method === 'page'),
    google: google.filter(([command]) => command === 'config'),
  };
}

/** The page's current document, as the fakes name it. */
const documentOf = (page: Page) => page.evaluate(() => performance.timeOrigin);

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession({ bindings: BINDINGS });
});
afterAll(async () => {
  await session?.stop();
});

/** axe's serious and critical findings inside the banner. */
async function bannerViolations(page: Page): Promise<string[]> {
  return seriousViolations(await runAxe(page, { context: '.consent-bar' }));
}

/** The banner's box and the Continue button's, if the screen has one, in page coordinates. */
async function bannerAndContinue(page: Page) {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const rect = document.querySelector(selector)?.getBoundingClientRect();
      return rect ? { top: rect.top + scrollY, bottom: rect.bottom + scrollY } : null;
    };
    return { banner: box('.consent'), button: box('#continue-button') };
  });
}

describe('the banner breaks no screen', () => {
  // One window: each screen loaded at 350 px, /signup last, then widened to 992 px rather than
  // loaded again (a resize lays the page out as a load at that width does: the screen walk's
  // way, test/browser/screen-walk.ts). The banner is one piece of markup before every screen's
  // own: its keyboard order and its axe check are read on the checkout, the screen with the
  // most controls after it, left to right and right to left; its layout on every render.
  const renders: [string, RenderWidth, 'keyboard-usable, axe-clean' | 'laid out only'][] = [
    ['/one_pager', 350, 'laid out only'],
    ['/checkout_v3_tr', 350, 'keyboard-usable, axe-clean'],
    ['/checkout_v3_tr?custom_lng=ar', 350, 'keyboard-usable, axe-clean'],
    ['/signup', 350, 'laid out only'],
    ['/signup', 992, 'laid out only'],
  ];
  let context: BrowserContext;
  let page: Page;
  let width: RenderWidth = 350;
  let opened = '';

  beforeAll(async () => {
    context = await newRenderContext(session.browser, session.worker.url.href, width);
    await servePixels(context);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it.each(renders)(
    '%s at %ipx: no overlap or overflow, clear of Continue, named; %s',
    async (path, at, checks) => {
      if (width !== at) {
        await page.setViewportSize({ width: at, height: VIEWPORT_HEIGHT[at] });
        width = at;
      }
      if (opened !== path) {
        await openSettledScreen(page, path);
        opened = path;
      }
      // Named in the page's language: the region's name is its aria-label.
      const region = page.getByRole('region', {
        name: (await page.locator('section.consent').getAttribute('aria-label')) ?? '',
      });
      await expect.poll(() => region.isVisible()).toBe(true);
      expect(layoutProblems(await inspectLayout(page))).toEqual([]);
      const { banner: box, button } = await bannerAndContinue(page);
      if (button && box) expect(box.bottom <= button.top || box.top >= button.bottom).toBe(true);
      if (checks === 'laid out only') return;
      const keyboard = await walkKeyboard(page);
      // The banner comes first in the page: its two buttons are the first two Tab stops.
      expect(keyboard.order.slice(0, 2).every((step) => step.includes('consent__button'))).toBe(
        true,
      );
      expect(keyboard.unreachable).toEqual([]);
      expect(keyboard.focusInvisible).toEqual([]);
      expect(await bannerViolations(page)).toEqual([]);
    },
  );
});

/**
 * Google's Consent Mode v2, "basic": gtag.js only once the ad tools may run, told the default (all
 * denied) and then the update from the visitor's answer before `config`
 * (developers.google.com/tag-platform/security/guides/consent?consentmode=basic).
 */
const CONSENT_MODE_STARTED = [
  ['consent', 'default', DENIED],
  ['consent', 'update', GRANTED],
  ['config', 'AW-555'],
];

/** The consent and config commands, in the order gtag.js reads them. */
const consentAndConfig = (layer: unknown[][] | null) =>
  (layer ?? []).filter(([command]) => command === 'consent' || command === 'config');

/**
 * The pixels set up on the page's current document: each once, and Google told the consent
 * before its config, in dataLayer and as gtag.js (the fake) read it.
 */
async function expectPixelsSetUp(page: Page, log: PixelLog, on: string): Promise<void> {
  const document = await documentOf(page);
  // Each fake reports through a binding, so its calls arrive a little after the page makes them.
  await expect.poll(() => setupCalls(log, document), { message: on }).toEqual(SET_UP_ONCE);
  await expect
    .poll(async () => consentAndConfig(await dataLayer(page)), { message: on })
    .toEqual(CONSENT_MODE_STARTED);
  expect((await dataLayer(page))?.[0], on).toEqual(['consent', 'default', DENIED]);
  await expect
    .poll(() => consentAndConfig(callsOn(log, document).google), { message: on })
    .toEqual(CONSENT_MODE_STARTED);
  // Once every fake has replayed all the page queued for it, nothing was set up a second time.
  await everyQueueReplayed(page, log);
  expect(setupCalls(log, document), on).toEqual(SET_UP_ONCE);
}

/** What the pixels do on the page, started with the tracker (islands/analytics/start.ts). */
describe('the pixels on the page', () => {
  // slow: a whole purchase in Chromium (sign-up, card, charge, receipt, upsell page), each
  // page's pixels read
  it('Accept by keyboard loads them there and on each next page; a purchase reaches each once', async () => {
    const { context, page, problems } = await session.newVisitor();
    const log = await servePixels(context);
    await page.goto('/signup');
    await interactive(page);
    // A visitor from an unknown country is asked.
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    await expect(banner(page).textContent()).resolves.toContain('advertising partners');
    // The pixels have started, and wait for the answer: Google is not even told one yet.
    await analyticsStarted(page);
    expect(log.requested, 'scripts before the answer').toEqual([]);
    expect(await dataLayer(page), 'dataLayer before the answer').toBeNull();

    // The banner comes first in the page: Tab reaches Accept, and Enter accepts.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Accept');
    await page.keyboard.press('Enter');
    await expect.poll(() => banner(page).count()).toBe(0);
    // The page writes document.cookie, which reaches the browser's cookie store a moment later:
    // read at once from there, on two loaded cores, it was not there yet.
    await expect.poll(() => consentCookie(context)).toBe('granted');
    expect(page.url()).toMatch(/\/signup$/);
    // The three load on the page the answer is given on.
    await expect.poll(() => log.requested.length).toBe(3);
    expect([...log.requested].sort()).toEqual(Object.values(PIXEL_SCRIPTS).sort());
    await expectPixelsSetUp(page, log, 'the page of the answer');

    // The next page asks no more and loads them at once.
    await submitEmail(page, uniqueEmail('pixels'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    await interactive(page);
    expect(await page.locator('.consent').count(), 'the banner on the next page').toBe(0);
    await expectPixelsSetUp(page, log, 'the next page');
    expect(log.requested).toHaveLength(6);

    const userId = (await signupField(page, 'userId')) as string;
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    await interactive(page);
    const { results } = await session.worker.portalDb
      .prepare('SELECT id, event_id FROM subscriptions WHERE user_id = ? AND status = ?')
      .bind(userId, 'active')
      .all<{ id: string; event_id: string | null }>();
    expect(results).toHaveLength(1);
    const { id: subId, event_id: eventId } = results[0]!;
    const purchases = () => {
      const { meta, tiktok, google } = callsOn(log);
      return {
        meta: meta.filter(([, name]) => name === 'Purchase_test'),
        tiktok: tiktok.filter(([, name]) => name === 'CompletePayment_test'),
        google: google.filter(
          ([command, name]) => command === 'event' && String(name).endsWith('_test'),
        ),
      };
    };
    // Each network's script reports on its own; wait for all three, not the last one checked.
    const counts = () => Object.values(purchases()).map((calls) => calls.length);
    await expect.poll(counts, { timeout: PATIENCE_MS }).toEqual([1, 1, 2]);
    // Reloaded, the page starts its pixels again: each fake replays the new page's queue, which
    // would hold a purchase reported a second time.
    await page.reload();
    await interactive(page);
    await everyQueueReplayed(page, log);

    const heard = purchases();
    const id = eventId ?? subId;
    expect(heard.meta).toEqual([
      [
        'trackCustom',
        'Purchase_test',
        expect.objectContaining({ currency: 'USD' }),
        { eventID: id },
      ],
    ]);
    expect(heard.tiktok).toEqual([
      [
        'track',
        'CompletePayment_test',
        expect.objectContaining({ currency: 'USD' }),
        { event_id: id },
      ],
    ]);
    expect(heard.google).toEqual([
      ['event', 'purchase_test', expect.objectContaining({ transaction_id: subId })],
      [
        'event',
        'conversion_test',
        expect.objectContaining({ send_to: 'AW-555', transaction_id: subId }),
      ],
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a pixel script a blocker refuses breaks nothing and logs nothing of ours', async () => {
    const { context, page, problems } = await session.newVisitor();
    const scripts: string[] = Object.values(PIXEL_SCRIPTS);
    const consoleLines: { text: string; url: string }[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        consoleLines.push({ text: message.text(), url: message.location().url });
    });
    const log = await servePixels(context, 'blocked');
    await context.addCookies([
      { name: 'gf_consent', value: 'granted', url: session.worker.url.href },
    ]);
    await page.goto('/signup');
    await interactive(page);
    await expect.poll(() => log.requested.length).toBe(3);
    // The page has taken each refusal: a script that did not load is removed from the page.
    await analyticsStarted(page);
    await expect
      .poll(() => page.locator(scripts.map((src) => `script[src="${src}"]`).join(', ')).count())
      .toBe(0);
    // Chromium's own report of each refused script (the request, and its console echo located
    // at the script's URL) is the blocker's doing; nothing else may go wrong or be logged. (The
    // harness already lets Google's sign-in script be refused on this screen.)
    const refusedByDesign = (url: string) =>
      scripts.includes(url) || EXPECTED_THIRD_PARTY.some((expected) => url.startsWith(expected));
    expect(consoleLines.filter((line) => !refusedByDesign(line.url))).toEqual([]);
    const blockersOwn = (problem: string) =>
      scripts.some((script) => problem.includes(script)) ||
      problem.startsWith('error: Failed to load resource: net::ERR_BLOCKED_BY_CLIENT');
    expect(problems.filter((problem) => !blockersOwn(problem))).toEqual([]);
    await page.locator('input[type="email"]').fill('blocked@example.com');
    expect(await page.locator('#continue-button').isEnabled()).toBe(true);
    await context.close();
  });
});
