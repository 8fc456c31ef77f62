/**
 * The drawn pictures of the app (screens/kit/PhoneArt.tsx): every colour a theme variable, so
 * each theme draws them its own way. Inlined only on the pages that show them.
 */
export const ART_CSS = `
.app-art{margin:8px 0 20px}
.art{display:block;width:100%;max-width:320px;height:auto;margin-inline:auto}
.art__frame{fill:var(--ink)}
.art__canvas,.art__halo{fill:var(--canvas)}
.art__halo{fill:color-mix(in srgb,var(--brand) 12%,var(--canvas))}
.art__ground{fill:color-mix(in srgb,var(--brand) 7%,var(--surface))}
.art__park{fill:color-mix(in srgb,var(--brand) 16%,var(--surface))}
.art__water{fill:color-mix(in srgb,var(--brand) 26%,var(--surface))}
.art__street{fill:none;stroke:var(--surface);stroke-width:5}
.art__brand{fill:var(--brand)}
.art__on-brand,.art__person,.art__surface{fill:var(--surface)}
.art__on-brand{fill:var(--brand-ink)}
.art__face--a{fill:color-mix(in srgb,var(--brand) 55%,var(--surface))}
.art__face--b{fill:color-mix(in srgb,var(--brand) 75%,var(--ink))}
.art__face--c{fill:color-mix(in srgb,var(--brand) 35%,var(--muted))}
.art__line{fill:color-mix(in srgb,var(--ink) 75%,var(--surface))}
.art__line--soft{fill:color-mix(in srgb,var(--muted) 45%,var(--surface))}
.art__check{fill:none;stroke:var(--brand-ink);stroke-width:2.4;stroke-linecap:round;stroke-linejoin:round}
.art__card{fill:var(--surface);filter:drop-shadow(0 4px 8px color-mix(in srgb,var(--ink) 18%,transparent))}
`;
