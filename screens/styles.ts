import type { Theme } from '../worker/funnel/locale';
import { AFTER_CSS } from './after/styles';
import { KIT_CSS } from './kit/styles';
import { LANDING_CSS } from './landing/styles';
import { PLANS_CSS } from './plans/styles';
import { SEARCHING_CSS } from './searching/styles';
import { SIGNUP_CSS } from './signup/styles';

/**
 * Theme tokens (SPEC.md §3 themes): colours, logo and type as CSS custom properties, so a theme
 * switch changes no markup. Only the page's own theme is inlined.
 */
const THEME_TOKENS: Record<Theme, string> = {
  geozilla:
    '--brand:#2f6bff;--brand-ink:#fff;--ink:#101828;--muted:#5b6478;--surface:#fff;--canvas:#f4f6fb;--logo:url(/logos/geozilla.svg);--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
  'family-locator':
    '--brand:#14a37f;--brand-ink:#fff;--ink:#0f2a24;--muted:#4f6b64;--surface:#fff;--canvas:#eef8f5;--logo:url(/logos/family-locator.svg);--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
  brainbloom:
    '--brand:#7c4dff;--brand-ink:#fff;--ink:#1d1440;--muted:#5f5684;--surface:#fff;--canvas:#f5f2ff;--logo:url(/logos/brainbloom.svg);--font:Georgia,"Times New Roman",serif',
  findo:
    '--brand:#ff6a3d;--brand-ink:#fff;--ink:#2a1409;--muted:#6f5548;--surface:#fff;--canvas:#fff5f0;--logo:url(/logos/findo.svg);--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif',
};

/**
 * Critical CSS, inlined in every page. Layout constants of SPEC.md §9: mobile 350, tablet from
 * 432, desktop from 992; content at most 343 wide; side and page padding 16; button radius 12;
 * Continue 56 high; bottom padding 88 with a bottom button, else 16.
 */
const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-width:320px;font-family:var(--font);color:var(--ink);background:var(--canvas);line-height:1.45}
.top-bar{display:flex;align-items:center;justify-content:center;height:56px;padding:0 16px;background:var(--surface);border-bottom:1px solid rgba(16,24,40,.08)}
.top-bar__logo{display:block;width:132px;height:28px;background:var(--logo) center/contain no-repeat}
.page{width:100%;max-width:calc(343px + 32px);margin:0 auto;padding:16px 16px 16px}
.page--bottom-button{padding-bottom:88px}
h1{font-size:26px;line-height:1.2;margin:8px 0 12px}
.lead{color:var(--muted);margin:0 0 24px}
.button{display:flex;align-items:center;justify-content:center;width:100%;height:56px;border:0;border-radius:12px;font:600 17px/1 var(--font);text-decoration:none;cursor:pointer}
.button--primary{background:var(--brand);color:var(--brand-ink)}
.button:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
.continue-form{margin:0 0 24px}
.toast-area{position:fixed;left:0;right:0;top:64px;display:flex;justify-content:center;padding:0 16px;pointer-events:none;z-index:10}
.toast{display:flex;gap:12px;align-items:flex-start;max-width:343px;width:100%;padding:12px 14px;border-radius:12px;background:#d92d20;color:#fff;pointer-events:auto}
.toast__message{flex:1}
.toast__close{background:none;border:0;color:inherit;font-size:22px;line-height:1;cursor:pointer;min-width:24px}
[dir=rtl] body{text-align:right}
@media (min-width:432px){.page{padding-top:32px}h1{font-size:30px}}
@media (min-width:992px){.top-bar{justify-content:flex-start;padding:0 calc(50% - 480px)}.page{padding-top:48px}}
`
  .trim()
  .replace(/\n/g, '');

const SHARED_CSS = [BASE_CSS, KIT_CSS, LANDING_CSS, SEARCHING_CSS, SIGNUP_CSS, PLANS_CSS, AFTER_CSS]
  .join('')
  .replace(/\s*\n\s*/g, '');

export function criticalCss(theme: Theme): string {
  return `:root{${THEME_TOKENS[theme]}}${SHARED_CSS}`;
}
