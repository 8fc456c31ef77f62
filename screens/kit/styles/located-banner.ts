/** SPEC.md §2: the 'number located' banner. */
export const LOCATED_BANNER_CSS = `
.located-banner{display:flex;align-items:center;gap:12px;margin:0 0 16px;padding:12px 16px;
  border:1.5px solid var(--brand);border-radius:12px;background:var(--surface)}
.located-banner__icon{flex:none;width:28px;height:28px;color:var(--brand)}
.located-banner__text{display:flex;flex-direction:column;min-width:0}
.located-banner__title{font-weight:700}
.located-banner__phone{color:var(--muted);font-variant-numeric:tabular-nums}
`;
