import { ART_CSS } from '../kit/styles/art';

/**
 * CSS of the landing screens, inlined in every page with the rest of the critical CSS: keep it
 * short. Colours come from the theme tokens only (the red of a refusal is the toast's), sizes
 * from SPEC.md §9 (phone field 51px high, radius 12), sides from logical properties (RTL).
 */
const HERO_CSS = `
.landing-hero__badge{display:inline-block;margin:0;padding:4px 10px;border-radius:12px;background:var(--brand);color:var(--brand-ink);font-size:13px;font-weight:600}
.landing-section{margin-block:32px}
.landing-section__title{font-size:20px;line-height:1.25;margin:0 0 12px}
.landing-section p,.story p{margin:0 0 12px}
.landing-ai-panel{margin-block-end:24px;padding:16px;border-radius:16px;background:linear-gradient(135deg,color-mix(in srgb,var(--brand) 16%,var(--surface)),var(--surface));border:1px solid color-mix(in srgb,var(--brand) 35%,transparent)}
.landing--ai h1{background:linear-gradient(90deg,var(--brand),var(--ink));-webkit-background-clip:text;background-clip:text;color:transparent}
.story{margin-block:32px}
`;

/** SPEC.md §9: phone input 51px high; the summary box is what a narrow phone can spare. */
const PHONE_CSS = `
.phone-section{margin-block-end:24px}
.phone-section__consent{margin:12px 0 0;color:var(--muted);font-size:14px}
.phone-form .button{margin-block-start:16px}
.phone-form__error{margin:8px 0 0;color:#d92d20;font-size:14px}
.phone-input__label{display:block;margin-block-end:6px;font-weight:600;font-size:15px}
.phone-input__row{display:flex;gap:8px}
.phone-input__country{position:relative;flex:0 0 92px;height:51px;display:flex;align-items:center;justify-content:center;border:1px solid color-mix(in srgb,var(--muted) 45%,transparent);border-radius:12px;background:var(--surface);font-weight:600;white-space:nowrap}
.phone-input__country::after{content:"";margin-inline-start:6px;border:5px solid transparent;border-top-color:var(--muted);margin-block-start:5px}
.phone-input__select{position:absolute;inset:0;width:100%;opacity:0;cursor:pointer;font-size:16px}
.phone-input__country:focus-within,.phone-input__number:focus{outline:3px solid color-mix(in srgb,var(--brand) 45%,transparent);outline-offset:1px}
.phone-input__number{flex:1;min-width:0;height:51px;padding-inline:14px;border:1px solid color-mix(in srgb,var(--muted) 45%,transparent);border-radius:12px;background:var(--surface);color:var(--ink);font:17px var(--font)}
.phone-input--invalid .phone-input__number{border:2px solid #d92d20}
`;

const CONTENT_CSS = `
.claim-strip{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 24px;padding:0;list-style:none}
.claim-strip__item{padding:6px 10px;border-radius:12px;background:var(--surface);font-size:14px;font-weight:600}
.claim-strip__item::before{content:"✓ ";color:var(--brand)}
.feature-icon{flex:none;fill:none;stroke:var(--brand);stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.feature-grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px;margin:0;padding:0;list-style:none}
.feature-grid__item{padding:12px;border-radius:12px;background:var(--surface);overflow-wrap:anywhere;hyphens:auto}
.feature-grid__title{margin:8px 0 4px;font-size:15px}
.feature-grid__text{margin:0;color:var(--muted);font-size:14px}
.feature-list{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:10px;margin:0;padding:0;list-style:none}
.feature-list__item{display:flex;gap:8px;align-items:center;font-weight:600;font-size:15px;overflow-wrap:anywhere;hyphens:auto}
.how-steps{margin:0;padding-inline-start:20px}
.how-steps li{margin-block-end:8px}
.stats{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:8px;margin:0 0 24px;text-align:center}
.stats__item{padding:12px 4px;border-radius:12px;background:var(--surface)}
.stats__value{font-size:20px;font-weight:700;color:var(--brand);overflow-wrap:anywhere}
.stats__label{margin:0;font-size:13px;color:var(--muted);overflow-wrap:anywhere;hyphens:auto}
.guarantee{margin-block:32px;padding:16px;border-radius:12px;border:2px solid var(--brand);background:var(--surface)}
.guarantee__title{margin:0 0 6px;font-size:18px}
.guarantee__text{margin:0;color:var(--muted)}
.faq__item{border-block-end:1px solid color-mix(in srgb,var(--muted) 30%,transparent)}
.faq__question{display:flex;align-items:center;min-height:48px;font-weight:600;cursor:pointer}
.faq__answer{margin:0 0 12px;color:var(--muted)}
`;

/**
 * SPEC.md §4 reviews carousel: on a phone one item wide, sliding by the island's index (until the
 * script runs, a window that scrolls sideways), with its Pause button's row kept from the first
 * paint; from 768 px every review side by side, still; or a list.
 */
const REVIEWS_CSS = `
.reviews__viewport{overflow:hidden;border-radius:12px}
.reviews:not([data-live]) .reviews__viewport{overflow-x:auto;scroll-snap-type:x mandatory}
.reviews:not([data-live]) .reviews__item{scroll-snap-align:start}
.reviews:not([data-live]) .reviews__item--clone{display:none}
.reviews__viewport:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
.reviews__track{display:flex;margin:0;padding:0;list-style:none;transition:transform .5s ease;transform:translateX(calc(var(--reviews-index,0)*-100%))}
[dir=rtl] .reviews__track{transform:translateX(calc(var(--reviews-index,0)*100%))}
.reviews__track--instant{transition:none}
.reviews__track--static{flex-direction:column;gap:12px;transform:none!important}
.reviews__item{flex:0 0 100%;min-width:0;padding:16px;border-radius:12px;background:var(--surface)}
.reviews__figure{margin:0}
.reviews__author{display:flex;align-items:center;gap:10px;margin-block-end:8px;font-weight:600}
.reviews__avatar{display:grid;place-items:center;flex:none;width:48px;height:48px;border-radius:50%;background:var(--brand);color:var(--brand-ink);font-size:15px}
.reviews__text{margin:0;color:var(--ink)}
.reviews__controls{display:flex;justify-content:flex-end;min-height:44px;margin-block-start:8px}
.reviews__pause{display:inline-flex;align-items:center;gap:8px;min-height:44px;padding:0 16px;border:1px solid color-mix(in srgb,var(--muted) 60%,transparent);border-radius:22px;background:var(--surface);color:var(--ink);font:600 15px var(--font);cursor:pointer}
.reviews__pause:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
.reviews__pause-icon{width:10px;height:12px;border-inline:3px solid currentColor}
.reviews__pause[data-state=paused] .reviews__pause-icon{width:0;height:0;border:6px solid transparent;border-inline:0;border-left:10px solid currentColor}
.rating{display:flex;flex-wrap:wrap;align-items:center;gap:4px 10px;margin:0 0 12px}
.rating__stars{flex:none;font-size:20px;line-height:1;background:linear-gradient(90deg,var(--brand) var(--rating-fill),color-mix(in srgb,var(--muted) 45%,transparent) 0);-webkit-background-clip:text;background-clip:text;color:transparent}
.rating__text{color:var(--ink);font-size:15px}
@media (prefers-reduced-motion:reduce){.reviews__track{flex-direction:column;gap:12px;transform:none!important;transition:none}.reviews__item--clone,.reviews__controls{display:none}}
@media (min-width:768px){.reviews__viewport{overflow:visible}.reviews__track{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px;transform:none!important;transition:none}.reviews__item--clone,.reviews__controls{display:none}}
@media (min-width:432px){.feature-grid__item{padding:16px}}
`;

/**
 * From a tablet's 768 (two columns of a phone's width) and on a desktop (SPEC.md §9, from 992):
 * the pitch (heading and phone form) in the start column beside the aside (the app's picture,
 * claims, what you get, how it works) in the end column, each its own stack, so neither waits on
 * the other's heights; the proof and the rest then run across both. Only a pitch followed by its
 * aside (section-specs.ts) is laid out so; the markup and its reading order stay the phone's,
 * and columns follow the page's direction, so Arabic mirrors them. The aside runs longer than the
 * pitch, so on a window tall enough for the whole pitch (the AI panel, with its picture, is not)
 * the phone form stays in sight beside it while the visitor reads on. On a tablet upright the
 * aside would run far below the pitch: there only its picture stands beside the pitch (when it
 * opens the aside) and the rest runs across both columns under them.
 */
const WIDE_CSS = `
@media (min-width:768px){
.page:has(>.landing>.landing__pitch+.landing__aside){max-width:992px}
.landing:has(>.landing__pitch+.landing__aside){display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);column-gap:32px;align-items:start}
.landing:has(>.landing__pitch+.landing__aside)>*{grid-column:1/-1}
.landing>.landing__pitch:has(+.landing__aside){grid-column:1;grid-row:1}
.landing>.landing__pitch+.landing__aside{grid-column:2;grid-row:1}
.landing__pitch+.landing__aside>:first-child{margin-block-start:0}
.landing__pitch+.landing__aside>:last-child{margin-block-end:0}
.landing__aside>[aria-labelledby=features-title]:has(>.feature-list){padding:24px;border-radius:16px;background:var(--surface)}
.landing__aside>.app-art{margin-block:0 24px}
}
@media (min-width:768px) and (max-width:991px){
.landing__pitch+.landing__aside:has(>.app-art:first-child){display:contents}
.landing__pitch+.landing__aside:has(>.app-art:first-child)>*{grid-column:1/-1}
.landing__pitch+.landing__aside>.app-art:first-child{grid-column:2;grid-row:1;align-self:center;margin:0}
}
@media (min-width:768px) and (min-height:760px){
.landing>.landing__pitch:has(+.landing__aside):not(:has(.landing-ai-panel)){position:sticky;top:24px}
}
@media (min-width:992px){
.landing:has(>.landing__pitch+.landing__aside){column-gap:48px}
.landing h1{font-size:40px}
.landing .lead{font-size:18px}
}`;

export const LANDING_CSS = HERO_CSS + PHONE_CSS + CONTENT_CSS + REVIEWS_CSS + ART_CSS + WIDE_CSS;
