import type { Brand } from '../shared/brand';
import type { Theme } from '../shared/theme';
import { KIT_CSS } from './kit/styles';
import { RTL_CSS } from './rtl-styles';

/**
 * Theme tokens (SPEC.md §3 themes): colours and type as CSS custom properties, so a theme
 * switch changes no markup. Only the page's own theme is inlined; its logo is its brand's
 * (shared/brand.ts), given with the page.
 */
const THEME_TOKENS: Record<Theme, string> = {
  geozilla:
    '--brand:#2563eb;--brand-ink:#fff;--ink:#101828;--muted:#5b6478;--surface:#fff;--canvas:#f4f6fb;--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
  'family-locator':
    '--brand:#108466;--brand-ink:#fff;--ink:#0f2a24;--muted:#4f6b64;--surface:#fff;--canvas:#eef8f5;--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
  brainbloom:
    '--brand:#7c4dff;--brand-ink:#fff;--ink:#1d1440;--muted:#5f5684;--surface:#fff;--canvas:#f5f2ff;--font:Georgia,"Times New Roman",serif',
  findo:
    '--brand:#c4512e;--brand-ink:#fff;--ink:#2a1409;--muted:#6f5548;--surface:#fff;--canvas:#fff5f0;--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
};

/**
 * Critical CSS, inlined in every page: the document and type. The page chrome and its layout
 * constants of SPEC.md §9 (container, paddings, buttons, toast) are the kit's (KIT_CSS).
 */
const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-width:320px;font-family:var(--font);color:var(--ink);background:var(--canvas);line-height:1.45}
h1{font-size:26px;line-height:1.2;margin:8px 0 12px}
.lead{color:var(--muted);margin:0 0 24px}
[dir=rtl] body{text-align:right}
@media (min-width:432px){h1{font-size:30px}}
`
  .trim()
  .replace(/\n/g, '');

/** Line breaks and indentation go; what remains is what the browser needs. */
export function compactCss(css: string): string {
  return css.replace(/\s*\n\s*/g, '');
}

/** Every page's CSS: the base, the UI kit and right-to-left rules. */
const SHARED_CSS = compactCss([BASE_CSS, KIT_CSS, RTL_CSS].join(''));

/**
 * The page's critical CSS: its theme's tokens and its brand's logo, the shared rules, and the CSS
 * of the screen's own area only (screens/registry.ts), so no page carries every other screen's
 * styles. The logo's path is the config's, held there to characters a CSS url() takes plain
 * (shared/config/brands.ts).
 */
export function criticalCss(theme: Theme, logo: Brand['logos']['header'], screenCss = ''): string {
  const logoTokens = `--logo:url(${logo.src});--logo-width:${logo.width}px;--logo-height:${logo.height}px`;
  return `:root{${THEME_TOKENS[theme]};${logoTokens}}${SHARED_CSS}${screenCss}`;
}
