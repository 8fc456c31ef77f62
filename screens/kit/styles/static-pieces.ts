/**
 * The server-only pieces of screens/kit (SPEC.md §2 Other UI pieces): trust labels, the
 * numbered step list, store badges, payment provider logos, support and legal links, the 'or'
 * divider, the 'offer ends' banner, and the linear progress bar (segments 5px apart, §9).
 */
export const STATIC_PIECES_CSS = `
.linear-progress{display:flex;gap:5px;margin:0 0 16px}
.linear-progress__segment{flex:1;height:4px;border-radius:2px;
  background:color-mix(in srgb,var(--muted) 25%,transparent)}
.linear-progress__segment--done{background:var(--brand)}
.trust-labels{display:flex;flex-wrap:wrap;justify-content:center;gap:8px 16px;margin:16px 0;
  padding:0;list-style:none;color:var(--muted);font-size:13px}
.trust-labels__item{display:inline-flex;align-items:center;gap:6px}
.trust-labels__icon{flex:none;width:16px;height:16px;color:var(--brand)}
.step-list{margin:0 0 16px;padding:0;list-style:none;counter-reset:step-list}
.step-list__item{position:relative;min-height:28px;margin:0 0 12px;padding-inline-start:40px;
  counter-increment:step-list}
.step-list__item::before{content:counter(step-list);position:absolute;inset-inline-start:0;top:0;
  display:grid;place-items:center;width:28px;height:28px;border-radius:50%;
  background:var(--brand);color:var(--brand-ink);font-weight:700;font-size:14px}
.store-badges{display:grid;grid-auto-columns:1fr;width:fit-content;max-width:100%;gap:12px;
  margin:16px auto;padding:0;list-style:none}
@media (min-width:432px){.store-badges{grid-auto-flow:column}}
.store-badge{display:flex;align-items:center;gap:8px;height:48px;
  padding-inline:12px;border-radius:10px;background:var(--ink);color:var(--surface);
  text-decoration:none}
.store-badge__icon{flex:none;width:24px;height:24px}
.store-badge__text{display:flex;flex-direction:column;line-height:1.1}
.store-badge__top{font-size:11px}
.store-badge__name{font-size:18px;font-weight:600}
.provider-logo{display:inline-block;height:24px;width:auto;vertical-align:middle}
.support-links{margin:16px 0;font-size:13px;color:var(--muted)}
.support-links__list{display:flex;flex-wrap:wrap;justify-content:center;gap:4px 16px;margin:0;
  padding:0;list-style:none}
.support-links__link{color:inherit;text-decoration:underline}
.divider{display:flex;align-items:center;gap:12px;margin:16px 0;color:var(--muted);font-size:14px}
.divider::before,.divider::after{content:'';flex:1;height:1px;background:var(--muted);opacity:.4}
.offer-banner{display:flex;align-items:center;justify-content:space-between;gap:12px;
  margin:0 0 16px;padding:10px 16px;border-radius:12px;background:var(--brand);
  color:var(--brand-ink);font-weight:600}
.offer-banner__time{font-size:20px;font-variant-numeric:tabular-nums}
`;
