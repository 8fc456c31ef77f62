// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { holdEveryLanguage } from '../../../scripts/every-language';
import type { PageAnalytics } from '../../../shared/analytics/tracking';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { ALL_PIXELS, NO_PIXELS, purchaseEvent } from './fakes';

holdEveryLanguage();

/**
 * startPixels in a page (happy-dom): the real event hub, the real store the banner writes,
 * localStorage and script tags. happy-dom never fetches the scripts.
 */

const SCRIPTS = [
  'https://connect.facebook.net/en_US/fbevents.js',
  'https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=CTIKTOK123&lib=ttq',
  'https://www.googletagmanager.com/gtag/js?id=AW-555',
];

function analytics(overrides: Partial<PageAnalytics> = {}): PageAnalytics {
  return {
    visitorId: 'visitor',
    production: false,
    collector: '/e',
    tracking: {
      appsflyer_id: null,
      google_tracking_id: null,
      google_client_id: null,
      user_data: {
        uuid: 'visitor',
        fbc: null,
        fbp: null,
        fb_click_id: null,
        ttp: null,
        tt_click_id: null,
        source_url: '',
        google_click_id: null,
      },
    },
    consent: 'pending',
    pixels: ALL_PIXELS,
    ...overrides,
  };
}

/** A fresh document's modules: the pixels, the banner's store and the tracker's hub. */
async function openPage() {
  vi.resetModules();
  return {
    pixels: await import('../../../islands/pixels'),
    consent: await import('../../../islands/pixels/consent'),
    hub: await import('../../../islands/analytics/listeners'),
  };
}

const scriptSources = () => [...document.head.querySelectorAll('script')].map((s) => s.src);

beforeEach(() => {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    'https://funnel.test/upsell_an_private',
  );
  // happy-dom never fetches a script; here it reports each as loaded, and says so on the console.
  (
    window as unknown as { happyDOM: { settings: Record<string, unknown> } }
  ).happyDOM.settings.handleDisabledFileLoadingAsSuccess = true;
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the next test is a visitor who has not answered
  document.cookie = 'gf_consent=; Max-Age=0; Path=/';
  for (const script of document.head.querySelectorAll('script')) script.remove();
  for (const key of ['fbq', '_fbq', 'ttq', 'TiktokAnalyticsObject', 'dataLayer', 'gtag'])
    delete (window as unknown as Record<string, unknown>)[key];
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('startPixels', () => {
  it('waits for the banner, then adds the three scripts once and reports the purchase once', async () => {
    const page = await openPage();
    page.hub.notifyListeners(purchaseEvent());
    page.pixels.startPixels(analytics());
    expect(scriptSources()).toEqual([]);
    page.consent.answerConsent('granted');
    page.pixels.startPixels(analytics({ consent: 'granted' }));
    expect(scriptSources()).toEqual(SCRIPTS);
    const fbq = (window as unknown as { fbq: { queue: unknown[][] } }).fbq;
    expect(fbq.queue.filter(([method]) => method === 'trackCustom')).toEqual([
      [
        'trackCustom',
        'Purchase_test',
        {
          value: 6.99,
          currency: 'USD',
          content_ids: ['monthly_intro_7d_usd'],
          content_type: 'product',
        },
        { eventID: 'evt_1' },
      ],
    ]);
    expect(JSON.parse(localStorage.getItem('gf:pixels:fired') ?? '{}')).toMatchObject({
      meta: ['sub_1'],
    });
  });

  it('after a reload the same purchase is not reported again', async () => {
    const first = await openPage();
    first.pixels.startPixels(analytics({ consent: 'granted' }));
    first.hub.notifyListeners(purchaseEvent());

    const reloaded = await openPage();
    for (const key of ['fbq', '_fbq', 'ttq', 'dataLayer', 'gtag'])
      delete (window as unknown as Record<string, unknown>)[key];
    reloaded.hub.notifyListeners(purchaseEvent());
    reloaded.pixels.startPixels(analytics({ consent: 'granted' }));
    const fbq = (window as unknown as { fbq: { queue: unknown[][] } }).fbq;
    expect(fbq.queue.map(([method, name]) => `${method} ${name}`)).toEqual([
      'init 1234567890',
      'track PageView',
    ]);
  });

  it('declined, or nothing configured: no script, no global', async () => {
    const declined = await openPage();
    declined.pixels.startPixels(analytics());
    declined.consent.answerConsent('denied');
    const none = await openPage();
    none.pixels.startPixels(analytics({ consent: 'not_required', pixels: NO_PIXELS }));
    expect(scriptSources()).toEqual([]);
    expect(['fbq', 'ttq', 'gtag'].filter((key) => key in window)).toEqual([]);
  });
});

describe('the page asks only where it must (screens/layout/Page.tsx)', async () => {
  const { Page } = await import('../../../screens/layout/Page');
  const { renderWithIslands } = await import('../../../screens/layout/Island');
  const { shippedTranslator } = await import('../../../worker/i18n');

  async function render(attribution: Parameters<typeof Page>[0]['attribution'], language = 'en') {
    const { html, islands } = await renderWithIslands(
      <Page
        t={shippedTranslator(language)}
        brand={DEFAULT_BRANDS.geozilla}
        attribution={attribution}
      >
        <h1>Screen</h1>
      </Page>,
    );
    document.body.innerHTML = html;
    return islands;
  }

  it('shows the banner between the top bar and the screen while consent is pending', async () => {
    const islands = await render({ consent: 'pending', pixels: ALL_PIXELS });
    expect(islands.has('ConsentBanner')).toBe(true);
    const order = [...document.body.children].map((element) => element.className);
    expect(order.slice(1, 4)).toEqual(['top-bar', 'consent-bar', 'page']);
    const region = document.querySelector('.consent-bar section')!;
    expect(region.getAttribute('aria-label')).toBe('Cookie choice');
    expect(document.querySelector('.consent-bar style')?.textContent).toContain('.consent{');
  });

  it('in the visitor’s language', async () => {
    await render({ consent: 'pending', pixels: ALL_PIXELS }, 'de');
    const buttons = [...document.querySelectorAll('.consent button')].map((b) => b.textContent);
    expect(buttons).toEqual(['Akzeptieren', 'Ablehnen']);
  });

  it.each([
    ['not required', { consent: 'not_required', pixels: ALL_PIXELS }],
    ['granted', { consent: 'granted', pixels: ALL_PIXELS }],
    ['denied', { consent: 'denied', pixels: ALL_PIXELS }],
    ['pending with no ad tool configured', { consent: 'pending', pixels: NO_PIXELS }],
    [
      'pending with only AppsFlyer',
      { consent: 'pending', pixels: { ...NO_PIXELS, appsflyer: 'k' } },
    ],
  ] as const)('no banner when consent is %s', async (_, attribution) => {
    const islands = await render(attribution);
    expect(islands.has('ConsentBanner')).toBe(false);
    expect(document.querySelector('.consent-bar')).toBeNull();
  });
});
