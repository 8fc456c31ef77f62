/**
 * CSS of the searching screens and the circular progress, inlined in every page with the rest of
 * the critical CSS: keep it short. Colours from the theme tokens only; motion stops for
 * visitors who prefer reduced motion.
 */
const PROGRESS_CSS = `
.circular-progress{position:relative;display:grid;place-items:center;flex:none;margin-inline:auto}
.circular-progress svg{position:absolute;inset:0}
.circular-progress circle,.circular-progress path{fill:none}
.circular-progress__track{stroke:color-mix(in srgb,var(--brand) 14%,var(--surface))}
.circular-progress__bar{stroke:var(--brand);stroke-linecap:round;transition:stroke-dashoffset .1s linear}
.circular-progress__small-ring{stroke:color-mix(in srgb,var(--brand) 55%,transparent);stroke-linecap:round;transform-box:fill-box;transform-origin:center;animation:gf-spin 1.2s linear infinite}
.circular-progress__check{stroke:var(--brand);stroke-width:10;stroke-linecap:round;stroke-linejoin:round}
.circular-progress__value{position:relative;font-size:28px;font-weight:700}
@keyframes gf-spin{to{transform:rotate(360deg)}}
@keyframes gf-pulse{from{transform:scale(.4);opacity:.8}to{transform:scale(1.4);opacity:0}}
`;

const SEARCH_CSS = `
.searching__title--done,.searching:has(.search--done) .searching__title{display:none}
.searching:has(.search--done) .searching__title--done{display:inline}
.searching__badge{display:inline-block;margin:0;padding:4px 10px;border-radius:12px;background:var(--ink);color:var(--surface);font-size:13px;font-weight:600}
.search__status{display:grid;justify-items:center;gap:12px;margin-block-end:16px}
.search--map_first .search__status{display:flex;align-items:center;gap:16px;margin-block-start:16px}
.search--map_first .circular-progress__value{font-size:20px}
.search__number{margin:0;text-align:center}
.search--map_first .search__number{text-align:start}
.search__number-label{display:block;color:var(--muted);font-size:14px}
.search__number-value{font-size:20px;font-weight:700;unicode-bidi:isolate}
.search__steps{margin:0 0 16px;padding:0;list-style:none}
.search__step{position:relative;padding-block:8px;padding-inline-start:34px;color:var(--muted)}
.search__step::before{content:"";position:absolute;inset-inline-start:0;top:9px;width:22px;height:22px;box-sizing:border-box;border-radius:50%;border:2px solid color-mix(in srgb,var(--muted) 40%,transparent);display:grid;place-items:center;font-size:13px;color:var(--brand-ink)}
.search__step--active{color:var(--ink);font-weight:600}
.search__step--active::before{border-color:var(--brand);border-inline-end-color:transparent;animation:gf-spin 1s linear infinite}
.search__step--done{color:var(--ink)}
.search__step--done::before{content:"✓";border-color:var(--brand);background:var(--brand)}

.search__rows{margin:12px 0 16px;padding:4px 16px;border-radius:12px;background:var(--surface)}
.search__row{display:flex;justify-content:space-between;gap:12px;padding-block:10px;border-block-end:1px solid color-mix(in srgb,var(--muted) 20%,transparent)}
.search__row:last-child{border:0}
.search__row dt{color:var(--muted);white-space:nowrap}
.search__row dd{margin:0;font-weight:600;text-align:end;overflow-wrap:anywhere}
.search__whole{white-space:nowrap}
.search__notice{margin-block-end:16px;padding:16px;border-radius:12px;background:var(--surface)}
.search__notice p{margin:0 0 6px}
.search__notice-title{font-weight:700}
.search--stopped .button{margin-block-end:12px}
.search--ai{padding:16px;border-radius:16px;background:var(--ink);color:var(--surface)}
.search--ai .search__step,.search--ai .search__number-label,.search--ai .search__row dt{color:color-mix(in srgb,var(--surface) 70%,transparent)}
.search--ai .search__step--active,.search--ai .search__step--done{color:var(--surface)}
.search--ai .search__rows,.search--ai .search__notice{background:color-mix(in srgb,var(--surface) 10%,transparent)}
.search--ai .circular-progress__track{stroke:color-mix(in srgb,var(--surface) 18%,transparent)}
`;

/** The drawn map: streets in the surface colour on a tinted ground, a pin that pulses. */
const MAP_CSS = `
.area-map{margin:0 0 12px;position:relative}
.area-map__picture{position:absolute;inset:0;width:100%;height:100%;border-radius:12px;object-fit:cover;opacity:0;transition:opacity .3s}
.area-map__picture--shown{opacity:1}
.area-map svg{display:block;width:100%;height:auto;border-radius:12px}
.area-map__ground{fill:color-mix(in srgb,var(--brand) 7%,var(--surface))}
.area-map__park{fill:color-mix(in srgb,var(--brand) 14%,var(--surface))}
.area-map__water{fill:color-mix(in srgb,var(--brand) 24%,var(--surface))}
.area-map__streets{fill:none;stroke:var(--surface);stroke-width:5}
.area-map__avenue{fill:none;stroke:color-mix(in srgb,var(--brand) 30%,var(--surface));stroke-width:9}
.area-map__dot{fill:var(--brand);stroke:var(--surface);stroke-width:3}
.area-map__pulse{fill:var(--brand);transform-box:fill-box;transform-origin:center;animation:gf-pulse 1.6s ease-out infinite}
.area-map__radar circle{fill:none;stroke:color-mix(in srgb,var(--brand) 45%,transparent);stroke-width:2}
.area-map__radar path{fill:color-mix(in srgb,var(--brand) 30%,transparent);transform-box:fill-box;transform-origin:0 100%;animation:gf-spin 2s linear infinite}
@media (prefers-reduced-motion:reduce){.circular-progress__small-ring,.search__step--active::before,.area-map__pulse,.area-map__radar path{animation:none}}
`;

/**
 * From a tablet's 768 and on a desktop: the search stays one column, centred under the progress
 * (a wait is one thing to watch, not a page to read), with room for a wider map; the ring keeps
 * its 174.
 */
const DESKTOP_CSS = `
@media (min-width:768px){.page:has(>.searching){max-width:calc(560px + 32px)}}
`;

export const SEARCHING_CSS = PROGRESS_CSS + SEARCH_CSS + MAP_CSS + DESKTOP_CSS;
