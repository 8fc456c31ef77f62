import type { CollectedEvent } from '../../shared/analytics/batch';
import {
  adToolsAllowed,
  type ConsentState,
  type PageAnalytics,
} from '../../shared/analytics/tracking';
import type { AdPixel } from './ad-pixel';
import { type ConsentAnswer, effectiveConsent } from './consent';
import { createFiredLedger, type LedgerStorage } from './fired';
import { type GoogleGlobals, googleAdsPixel } from './google-ads';
import { type MetaGlobals, metaPixel } from './meta';
import { readPixelPurchase } from './purchase';
import { type TiktokGlobals, tiktokPixel } from './tiktok';

/** What the pixels need of the page's analytics context (PageState.analytics). */
export type PixelSettings = Pick<PageAnalytics, 'consent' | 'pixels' | 'production'>;

export interface PixelDeps {
  /** Where the networks' globals live: the page's window. */
  win: MetaGlobals & TiktokGlobals & GoogleGlobals;
  /** Adds a script once; rejects when it cannot load. */
  loadScript(src: string): Promise<void>;
  /** localStorage, or null where there is none. */
  storage: LedgerStorage | null;
  /** The tracker's events (islands/analytics/listeners.ts), replaying those already heard. */
  subscribe(listener: (event: CollectedEvent) => void, options: { replay: boolean }): () => void;
  /** The consent banner's answer (consent.ts). */
  consent: {
    known(): ConsentAnswer | null;
    listen(listener: (answer: ConsentAnswer | null) => void): () => void;
  };
}

/** The pixels the deployment configured, in a fixed order. */
function configuredPixels(settings: PixelSettings, win: PixelDeps['win']): AdPixel[] {
  const { pixels, production } = settings;
  const configured: AdPixel[] = [];
  if (pixels.meta) configured.push(metaPixel(win, pixels.meta, production));
  if (pixels.tiktok) configured.push(tiktokPixel(win, pixels.tiktok, production));
  if (pixels.googleAds) configured.push(googleAdsPixel(win, pixels.googleAds, production));
  return configured;
}

function runSafely(run: () => void): void {
  try {
    run();
  } catch (error) {
    console.warn('[pixels]', error);
  }
}

function startConfigured(pixels: AdPixel[], deps: PixelDeps, consent: ConsentState): void {
  for (const pixel of pixels) {
    runSafely(() => {
      deps.loadScript(pixel.install(consent)).catch(() => {
        // Blocked or offline: the calls stay in the stub's queue and the page goes on.
      });
    });
  }
  const ledger = createFiredLedger(deps.storage);
  deps.subscribe(
    (event) => {
      const purchase = readPixelPurchase(event);
      if (!purchase) return;
      for (const pixel of pixels) {
        if (ledger.claim(pixel.name, purchase.subId)) runSafely(() => pixel.purchase(purchase));
      }
    },
    { replay: true },
  );
}

/**
 * The ad pixels of a page: only those configured, only once the ad tools may run
 * (consent not required, or granted: already, or by the banner on this page), each purchase
 * reported to each pixel once.
 */
export function runPixels(settings: PixelSettings, deps: PixelDeps): void {
  const pixels = configuredPixels(settings, deps.win);
  if (pixels.length === 0) return;
  const state = effectiveConsent(settings.consent, deps.consent.known());
  if (adToolsAllowed(state)) {
    startConfigured(pixels, deps, state);
    return;
  }
  if (state === 'denied') return;
  const stop = deps.consent.listen((answer) => {
    if (answer === null) return;
    stop();
    if (answer === 'granted') startConfigured(pixels, deps, answer);
  });
}
