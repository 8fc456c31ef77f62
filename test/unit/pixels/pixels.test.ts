import { describe, expect, it, vi } from 'vitest';
import { FIRED_KEY } from '../../../islands/pixels/fired';
import { readPixelPurchase } from '../../../islands/pixels/purchase';
import { runPixels } from '../../../islands/pixels/run';
import { TIKTOK_SCRIPT_URL } from '../../../islands/pixels/tiktok';
import { readPurchase } from '../../../worker/collector/consumer/purchase';
import {
  ALL_PIXELS,
  fakePage,
  gtagCommands,
  memoryStorage,
  NO_PIXELS,
  purchaseEvent,
  settings,
  ttqCalls,
} from './fakes';

const SCRIPTS = [
  'https://connect.facebook.net/en_US/fbevents.js',
  'https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=CTIKTOK123&lib=ttq',
  'https://www.googletagmanager.com/gtag/js?id=AW-555',
];

/** The purchase calls each pixel queued, page views and setup left out. */
function purchaseCalls(page: ReturnType<typeof fakePage>) {
  return {
    meta: (page.win.fbq?.queue ?? []).filter(
      ([method, name]) => String(method).startsWith('track') && name !== 'PageView',
    ),
    tiktok: ttqCalls(page.win).filter(([method]) => method === 'track'),
    google: gtagCommands(page.win).filter(([command]) => command === 'event'),
  };
}

describe('which pixels load', () => {
  it('loads each configured pixel by its documented script, where consent is not required', () => {
    const page = fakePage();
    runPixels(settings(), page.deps);
    expect(page.loaded).toEqual(SCRIPTS);
  });

  it('loads only the pixels that have an id', () => {
    const page = fakePage();
    runPixels(settings({ pixels: { ...NO_PIXELS, tiktok: 'CTIKTOK123' } }), page.deps);
    expect(page.loaded).toEqual([SCRIPTS[1]]);
    expect(page.win.fbq).toBeUndefined();
    expect(page.win.dataLayer).toBeUndefined();
  });

  it('loads nothing, and listens to nothing, when no pixel is configured', () => {
    const page = fakePage();
    runPixels(settings({ pixels: NO_PIXELS, consent: 'granted' }), page.deps);
    expect(page.loaded).toEqual([]);
    expect(page.hub.subscriptions).toEqual([]);
    expect(Object.keys(page.win)).toEqual([]);
  });

  it.each(['pending', 'denied'] as const)('loads nothing while consent is %s', (consent) => {
    const page = fakePage();
    runPixels(settings({ consent }), page.deps);
    page.hub.emit(purchaseEvent());
    expect(page.loaded).toEqual([]);
    expect(Object.keys(page.win)).toEqual([]);
  });

  it('loads once the banner grants consent on this page, and hears the purchase already tracked', () => {
    const page = fakePage();
    page.hub.emit(purchaseEvent());
    runPixels(settings({ consent: 'pending' }), page.deps);
    expect(page.loaded).toEqual([]);
    page.consent.answer('granted');
    expect(page.loaded).toEqual(SCRIPTS);
    expect(page.hub.subscriptions).toEqual([{ replay: true }]);
    const calls = purchaseCalls(page);
    expect([calls.meta.length, calls.tiktok.length]).toEqual([1, 1]);
    page.consent.answer('granted');
    expect(page.loaded).toEqual(SCRIPTS);
  });

  it('stays off when the banner is declined on this page', () => {
    const page = fakePage();
    runPixels(settings({ consent: 'pending' }), page.deps);
    page.consent.answer('denied');
    page.hub.emit(purchaseEvent());
    expect(page.loaded).toEqual([]);
  });

  it('follows an answer the worker has not seen yet (a page fetched ahead of it)', () => {
    const granted = fakePage();
    granted.consent.answer('granted');
    runPixels(settings({ consent: 'pending' }), granted.deps);
    expect(granted.loaded).toEqual(SCRIPTS);

    const declined = fakePage();
    declined.consent.answer('denied');
    runPixels(settings({ consent: 'pending' }), declined.deps);
    expect(declined.loaded).toEqual([]);
  });

  it('where consent is not required, a stored answer changes nothing (the worker decides)', () => {
    const page = fakePage();
    page.consent.answer('denied');
    runPixels(settings({ consent: 'not_required' }), page.deps);
    expect(page.loaded).toEqual(SCRIPTS);
  });
});

describe('each pixel is set up as its base code does', () => {
  it('Meta: fbq queues init and PageView until fbevents.js takes the queue over', () => {
    const page = fakePage();
    runPixels(settings(), page.deps);
    const fbq = page.win.fbq!;
    expect(fbq.queue).toEqual([
      ['init', '1234567890'],
      ['track', 'PageView'],
    ]);
    expect([fbq.loaded, fbq.version, fbq.push === fbq]).toEqual([true, '2.0', true]);
    expect((page.win as { _fbq?: unknown })._fbq).toBe(fbq);
    // What fbevents.js does on arrival: later calls go straight to it.
    const sdk = vi.fn();
    fbq.callMethod = sdk;
    fbq('track', 'Lead');
    expect(sdk).toHaveBeenCalledWith('track', 'Lead');
    expect(fbq.queue).toHaveLength(2);
  });

  it('TikTok: ttq records load for the pixel id and queues page()', () => {
    const page = fakePage();
    runPixels(settings(), page.deps);
    const ttq = page.win.ttq!;
    expect((page.win as { TiktokAnalyticsObject?: string }).TiktokAnalyticsObject).toBe('ttq');
    expect(ttqCalls(page.win)).toEqual([['page']]);
    expect(ttq._i.CTIKTOK123?._u).toBe(TIKTOK_SCRIPT_URL);
    expect(ttq._t.CTIKTOK123).toBeTypeOf('number');
    expect(ttq.methods).toContain('track');
    ttq.instance('CTIKTOK123').track('ViewContent');
    expect([...(ttq._i.CTIKTOK123 ?? [])]).toEqual([['track', 'ViewContent']]);
  });

  it('Google Ads: gtag pushes Arguments objects (as gtag.js needs): js, then config', () => {
    const page = fakePage();
    runPixels(settings(), page.deps);
    const layer = page.win.dataLayer ?? [];
    expect(
      layer.every((entry) => Object.prototype.toString.call(entry) === '[object Arguments]'),
    ).toBe(true);
    // The consent commands before them: google-consent-mode.test.ts.
    const [js, config] = gtagCommands(page.win).filter(([command]) => command !== 'consent');
    expect(js?.[0]).toBe('js');
    expect(js?.[1]).toBeInstanceOf(Date);
    expect(config).toEqual(['config', 'AW-555']);
  });

  it('a script that cannot load (a blocker) leaves the calls queued and logs nothing', async () => {
    const page = fakePage();
    page.deps.loadScript = (src) => Promise.reject(new Error(`${src} did not load`));
    const console_ = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')];
    runPixels(settings(), page.deps);
    page.hub.emit(purchaseEvent());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(purchaseCalls(page).meta).toHaveLength(1);
    for (const spy of console_) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});

describe('a purchase reaches each pixel (SPEC.md §3 purchase payload, §7)', () => {
  it('in production: Purchase, CompletePayment, purchase and the labelled conversion', () => {
    const page = fakePage();
    runPixels(settings({ production: true }), page.deps);
    page.hub.emit(purchaseEvent());
    const calls = purchaseCalls(page);
    expect(calls.meta).toEqual([
      [
        'track',
        'Purchase',
        {
          value: 6.99,
          currency: 'USD',
          content_ids: ['monthly_intro_7d_usd'],
          content_type: 'product',
        },
        { eventID: 'evt_1' },
      ],
    ]);
    expect(calls.tiktok).toEqual([
      [
        'track',
        'CompletePayment',
        {
          value: 6.99,
          currency: 'USD',
          content_id: 'monthly_intro_7d_usd',
          content_type: 'product',
        },
        { event_id: 'evt_1' },
      ],
    ]);
    expect(calls.google).toEqual([
      ['event', 'purchase', { value: 6.99, currency: 'USD', transaction_id: 'sub_1' }],
      [
        'event',
        'conversion',
        { send_to: 'AW-555/buyLabel', value: 6.99, currency: 'USD', transaction_id: 'sub_1' },
      ],
    ]);
  });

  it('outside production every name gets _test, and the conversion never carries the label', () => {
    const page = fakePage();
    runPixels(settings({ production: false }), page.deps);
    page.hub.emit(purchaseEvent({}, 'upsell_purchase_completed'));
    const calls = purchaseCalls(page);
    expect(calls.meta.map(([method, name]) => [method, name])).toEqual([
      ['trackCustom', 'Purchase_test'],
    ]);
    expect(calls.tiktok.map(([, name]) => name)).toEqual(['CompletePayment_test']);
    expect(
      calls.google.map(([, name, params]) => [name, (params as { send_to?: string }).send_to]),
    ).toEqual([
      ['purchase_test', undefined],
      ['conversion_test', 'AW-555'],
    ]);
  });

  it('without a conversion label Google hears the purchase only', () => {
    const page = fakePage();
    const pixels = { ...ALL_PIXELS, googleAds: { id: 'AW-555', conversionLabel: null } };
    runPixels(settings({ pixels }), page.deps);
    page.hub.emit(purchaseEvent());
    expect(purchaseCalls(page).google.map(([, name]) => name)).toEqual(['purchase']);
  });

  it('the event id is the portal event_id, else the subscription id: the one the server APIs send', () => {
    for (const payload of [
      { event_id: 'evt_9', sub_id: 'sub_9' },
      { event_id: null, sub_id: 'sub_8' },
      { event_id: '  ', sub_id: 'sub_7' },
      { event_id: 42, sub_id: 'sub_6' },
    ]) {
      const event = purchaseEvent(payload);
      const server = readPurchase(event);
      expect(server.ok && readPixelPurchase(event)?.eventId).toBe(
        server.ok && server.purchase.eventId,
      );
      const page = fakePage();
      runPixels(settings(), page.deps);
      page.hub.emit(event);
      const calls = purchaseCalls(page);
      const expected = server.ok ? server.purchase.eventId : null;
      expect(calls.meta[0]?.[3]).toEqual({ eventID: expected });
      expect(calls.tiktok[0]?.[3]).toEqual({ event_id: expected });
    }
  });

  it('ignores other events and purchases it cannot report', () => {
    const page = fakePage();
    runPixels(settings(), page.deps);
    page.hub.emit({ ...purchaseEvent(), event_type: 'subs_purchase_started' });
    page.hub.emit(purchaseEvent({ price: 'free' }));
    page.hub.emit(purchaseEvent({ currency: 'dollars' }));
    page.hub.emit(purchaseEvent({ sub_id: null }));
    const calls = purchaseCalls(page);
    expect([calls.meta, calls.tiktok, calls.google]).toEqual([[], [], []]);
  });
});

describe('each purchase fires each pixel exactly once', () => {
  it('however often the event is heard on the page', () => {
    const page = fakePage();
    page.hub.emit(purchaseEvent());
    runPixels(settings(), page.deps);
    page.hub.emit(purchaseEvent());
    page.hub.emit(purchaseEvent({ sub_id: 'sub_2', event_id: 'evt_2' }));
    const calls = purchaseCalls(page);
    expect(calls.meta.map((call) => call[3])).toEqual([{ eventID: 'evt_1' }, { eventID: 'evt_2' }]);
    expect(calls.tiktok).toHaveLength(2);
    expect(calls.google).toHaveLength(4);
  });

  it('after a reload: the reported subscription ids are kept in localStorage', () => {
    const storage = memoryStorage();
    const first = fakePage({ storage });
    runPixels(settings(), first.deps);
    first.hub.emit(purchaseEvent());
    expect(JSON.parse(storage.items.get(FIRED_KEY) ?? '{}')).toEqual({
      meta: ['sub_1'],
      tiktok: ['sub_1'],
      google_ads: ['sub_1'],
    });

    const reloaded = fakePage({ storage });
    runPixels(settings(), reloaded.deps);
    reloaded.hub.emit(purchaseEvent());
    const calls = purchaseCalls(reloaded);
    expect([calls.meta, calls.tiktok, calls.google]).toEqual([[], [], []]);
  });

  it('without storage (private mode) still once on the page', () => {
    const page = fakePage();
    page.deps.storage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    runPixels(settings(), page.deps);
    page.hub.emit(purchaseEvent());
    page.hub.emit(purchaseEvent());
    expect(purchaseCalls(page).meta).toHaveLength(1);
  });

  it('a pixel that throws does not keep the others from hearing the purchase', () => {
    const page = fakePage();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    runPixels(settings(), page.deps);
    page.win.fbq!.callMethod = () => {
      throw new Error('fbevents broke');
    };
    page.hub.emit(purchaseEvent());
    expect(purchaseCalls(page).tiktok).toHaveLength(1);
    expect(purchaseCalls(page).google).toHaveLength(2);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
