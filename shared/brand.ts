import type { Theme } from './theme';

/**
 * SPEC.md §3: who a page speaks for. Each theme is a brand of its own, with its own name, site,
 * address and store listings; the screens read it from their props and never name one, so a
 * family-locator page cannot say "Geozilla". The marketer's copy of these lives in the content
 * document (shared/config/brands.ts); these are the defaults in code, which apply to a theme the
 * document does not name, so a missing or broken KV value never leaves a page without a brand.
 */
export interface Brand {
  /** As visitors read it: the logo's label, `{{brand}}` in the copy. */
  name: string;
  /** What follows the screen's title in the tab: "Your plan · Geozilla". */
  titleSuffix: string;
  /** The brand's own site, bare (`geozilla.com`): where its links lead. */
  host: string;
  supportEmail: string;
  logos: {
    /** The top bar's logo: a file on this site (the page's img-src is 'self'), with its size. */
    header: { src: string; width: number; height: number };
  };
  /** The tab's icon, an SVG document inlined in every page's head (worker/render/favicon.ts). */
  favicon: string;
  links: { terms: string; privacy: string; subscriptionTerms: string };
  stores: { appStore: string; googlePlay: string };
}

/** The pin every default icon draws, in the brand's colour. */
function pinIcon(colour: string, name: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 22 28" role="img" aria-label="${name}">` +
    `<title>${name}</title><path fill="${colour}" d="M11 1C5.5 1 1 5.4 1 10.9 1 18.3 11 27 11 27s10-8.7 10-16.1C21 5.4 16.5 1 11 1zm0 13.5a3.6 3.6 0 1 1 0-7.2 3.6 3.6 0 0 1 0 7.2z"/></svg>`
  );
}

/** A brand's usual pages on its own site, and its store searches until the listings are known. */
function brandAt(name: string, host: string, colour: string, logoWidth: number): Brand {
  const term = encodeURIComponent(name);
  return {
    name,
    titleSuffix: name,
    host,
    supportEmail: `support@${host}`,
    logos: {
      header: {
        src: `/logos/${name.toLowerCase().replace(/\s+/g, '-')}.svg`,
        width: logoWidth,
        height: 28,
      },
    },
    favicon: pinIcon(colour, name),
    links: {
      terms: `https://${host}/terms-of-use/`,
      privacy: `https://${host}/privacy-policy/`,
      subscriptionTerms: `https://${host}/subscription-terms/`,
    },
    stores: {
      appStore: `https://apps.apple.com/us/search?term=${term}`,
      googlePlay: `https://play.google.com/store/search?q=${term}&c=apps`,
    },
  };
}

export const DEFAULT_BRANDS: Readonly<Record<Theme, Brand>> = {
  geozilla: brandAt('Geozilla', 'geozilla.com', '#2563eb', 132),
  'family-locator': brandAt('Family Locator', 'familylocator.app', '#108466', 148),
  brainbloom: brandAt('Brainbloom', 'brainbloom.app', '#7c4dff', 132),
  findo: brandAt('Findo', 'findo.app', '#c4512e', 132),
};

/** The brand a page of `theme` wears: the content document's, else the default in code. */
export function brandOf(brands: Partial<Record<Theme, Brand>> | undefined, theme: Theme): Brand {
  return brands?.[theme] ?? DEFAULT_BRANDS[theme];
}
