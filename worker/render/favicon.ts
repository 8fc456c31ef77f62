/**
 * The tab's icon, the page's brand's (shared/brand.ts), written into the page's head as a data
 * URI. As a file (`/favicon.svg`) it was one more request the browser began while a page was
 * loading, and when that request came before the first paint it put Lighthouse's simulated LCP on
 * the signup screen at about 925 ms instead of 780 (4 of 8 loads against 0 of 8 inline). Its few
 * hundred bytes cost the page less than a request does on a slow phone.
 */
const hrefs = new Map<string, string>();

/** At most this many icons kept: one per brand, and a few a marketer tried. */
const ICONS_KEPT = 16;

/** The `href` of the page's `<link rel="icon">` for an SVG icon. */
export function faviconHref(svg: string): string {
  let href = hrefs.get(svg);
  if (href === undefined) {
    href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
    if (hrefs.size >= ICONS_KEPT) hrefs.clear();
    hrefs.set(svg, href);
  }
  return href;
}
