/**
 * Page chrome (SPEC.md §2 Layout, §9): top bar, the content container (at most 343 wide, 16
 * padding on every side, tablet from 432, desktop from 992), focus rings, and the start-up
 * preloader. A screen with a bottom button gets 88px bottom padding from ./bottom-button.ts, in
 * its own page only.
 */
export const PAGE_CSS = `
.top-bar{display:flex;align-items:center;justify-content:center;height:56px;padding-inline:16px;
  background:var(--surface);border-bottom:1px solid rgba(16,24,40,.08)}
.top-bar__logo{display:block;width:var(--logo-width,132px);height:var(--logo-height,28px);background:var(--logo) center/contain no-repeat}
.page{width:100%;max-width:calc(343px + 32px);margin-inline:auto;padding:16px}
:where(a,button,input,select,textarea,summary,[tabindex]):focus-visible{
  outline:3px solid var(--ink);outline-offset:2px}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;
  overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.preloader{position:fixed;inset:0;z-index:100;display:grid;place-items:center;
  background:var(--canvas);opacity:0;visibility:hidden;pointer-events:none;
  transition:opacity .2s ease,visibility 0s linear .2s}
@supports selector(:has(*)){
  body:not(:has(.page)) .preloader:not(.preloader--done){opacity:1;visibility:visible;transition:none}
}
.preloader__spinner{width:40px;height:40px;border-radius:50%;border:4px solid var(--muted);
  border-top-color:var(--brand);animation:kit-spin .8s linear infinite}
@keyframes kit-spin{to{transform:rotate(360deg)}}
@media (min-width:432px){.page{padding-top:32px}}
@media (min-width:992px){.top-bar{justify-content:flex-start;padding-inline:calc(50% - 480px)}
  .page{padding-top:48px}}
@media (prefers-reduced-motion:reduce){.preloader{transition:none}
  .preloader__spinner,.loading-overlay__spinner,.button__spinner{animation:none}}
`;
