import type { Theme } from '../../shared/theme';
import { resolveLanguage, resolveTheme } from '../funnel/locale';
import { SUPPORTED_LANGUAGES } from '../i18n';

/**
 * The brand and language a purchase was made in: the theme of the page that asked for the
 * charge (its `?theme=`, which every funnel page carries on, SPEC.md §3; its `Referer`), and the
 * language the pages speak to this browser (SPEC.md §9, its Accept-Language). What the buyer
 * meets after the sale wears them: the manage link in the receipt (worker/purchases/after-charge.ts)
 * and, through the purchase event, the reminders' links and asks (worker/lifecycle/reminders.ts).
 */
export interface PurchaseLook {
  theme: Theme;
  language: string;
}

/** The look of the request that relayed a charge, read from its headers. */
export function purchaseLookOf(headers: Headers): PurchaseLook {
  const referer = headers.get('referer');
  const page = referer !== null && URL.canParse(referer) ? new URL(referer) : null;
  return {
    theme: resolveTheme(page?.searchParams.get('theme')),
    language: resolveLanguage({
      acceptLanguage: headers.get('accept-language'),
      customLng: null,
      supported: SUPPORTED_LANGUAGES,
      customLngAllowed: false,
    }),
  };
}
