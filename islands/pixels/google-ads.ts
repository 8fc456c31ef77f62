import type { PixelIds } from '../../shared/analytics/tracking';
import type { AdPixel } from './ad-pixel';
import { pixelEventName } from './purchase';

const GTAG_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';

export interface GoogleGlobals {
  dataLayer?: unknown[];
  gtag?: (...args: unknown[]) => void;
}

/**
 * Google Ads through gtag.js: `config` on every page; a purchase is the `purchase` event and,
 * with a conversion label, the `conversion` event sent to it, both with the subscription id as
 * `transaction_id` (Google counts a transaction once). Outside production (SPEC.md §9) they are
 * `purchase_test` and `conversion_test`, and the conversion goes to the tag without the label:
 * Google Ads has no test mode, and a hit carrying the label is what it counts as the conversion.
 */
export function googleAdsPixel(
  win: GoogleGlobals,
  ads: NonNullable<PixelIds['googleAds']>,
  production: boolean,
): AdPixel {
  return {
    name: 'google_ads',
    install() {
      win.dataLayer ??= [];
      win.gtag ??= function gtag() {
        // biome-ignore lint/complexity/noArguments: gtag.js tells a command from a dataLayer message by its being an Arguments object
        win.dataLayer?.push(arguments);
      };
      win.gtag('js', new Date());
      win.gtag('config', ads.id);
      return `${GTAG_SCRIPT_URL}?id=${encodeURIComponent(ads.id)}`;
    },
    purchase({ value, currency, subId }) {
      const amount = { value, currency, transaction_id: subId };
      win.gtag?.('event', pixelEventName('purchase', production), amount);
      if (!ads.conversionLabel) return;
      const sendTo = production ? `${ads.id}/${ads.conversionLabel}` : ads.id;
      win.gtag?.('event', pixelEventName('conversion', production), { send_to: sendTo, ...amount });
    },
  };
}
