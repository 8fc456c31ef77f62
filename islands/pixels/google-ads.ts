import { adToolsAllowed, type ConsentState, type PixelIds } from '../../shared/analytics/tracking';
import type { AdPixel } from './ad-pixel';
import { pixelEventName } from './purchase';

const GTAG_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';

export interface GoogleGlobals {
  dataLayer?: unknown[];
  gtag?: (...args: unknown[]) => void;
}

/**
 * Consent Mode v2's four signals, each 'granted' or 'denied'. Google needs them for visitors in
 * the EEA (support.google.com/tagmanager/answer/13695607); analytics_storage goes with the other
 * three, as Google's guide sets all four
 * (developers.google.com/tag-platform/security/guides/consent?consentmode=basic).
 */
const CONSENT_SIGNALS = [
  'ad_storage',
  'ad_user_data',
  'ad_personalization',
  'analytics_storage',
] as const;

type ConsentSignals = Record<(typeof CONSENT_SIGNALS)[number], 'granted' | 'denied'>;

function consentSignals(value: 'granted' | 'denied'): ConsentSignals {
  return Object.fromEntries(CONSENT_SIGNALS.map((signal) => [signal, value])) as ConsentSignals;
}

/**
 * The visitor's consent as Google's signals: all granted where the ad tools may run (consent not
 * required where the visitor is, or given), else all denied. The banner asks one question, so
 * the four signals move together.
 */
function googleConsent(state: ConsentState): ConsentSignals {
  return consentSignals(adToolsAllowed(state) ? 'granted' : 'denied');
}

/**
 * Google Ads through gtag.js: `config` on every page; a purchase is the `purchase` event and,
 * with a conversion label, the `conversion` event sent to it, both with the subscription id as
 * `transaction_id` (Google counts a transaction once). Outside production (SPEC.md §9) they are
 * `purchase_test` and `conversion_test`, and the conversion goes to the tag without the label:
 * Google Ads has no test mode, and a hit carrying the label is what it counts as the conversion.
 *
 * Consent is Google's "basic" consent mode: gtag.js is not on the page until the ad tools may
 * run (run.ts), so before the visitor's yes Google gets nothing, not even the consent state
 * (support.google.com/analytics/answer/14009635). Once the tag is installed it is told, in the
 * order that page gives, the default (all denied) and then the update from the state the pixels
 * start under (all granted, as they start only then; denied should they ever start earlier). Both
 * go before `config`, so the page view it sends and the gclid cookie it writes already see the
 * visitor's answer. No `wait_for_update`: it holds tags back for an update that a banner sends
 * later, and here the update is queued with the default, before gtag.js is even asked for. The
 * banner offers no way to withdraw consent on the page, so no later update to denied is sent;
 * the next page follows the new answer (gf_consent).
 */
export function googleAdsPixel(
  win: GoogleGlobals,
  ads: NonNullable<PixelIds['googleAds']>,
  production: boolean,
): AdPixel {
  return {
    name: 'google_ads',
    install(consent) {
      win.dataLayer ??= [];
      win.gtag ??= function gtag() {
        // biome-ignore lint/complexity/noArguments: gtag.js tells a command from a dataLayer message by its being an Arguments object
        win.dataLayer?.push(arguments);
      };
      win.gtag('consent', 'default', consentSignals('denied'));
      win.gtag('consent', 'update', googleConsent(consent));
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
