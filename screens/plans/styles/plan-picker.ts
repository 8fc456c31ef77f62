/**
 * SPEC.md §3, §9 plan picker: an item 82px high (2px border included), with an 18px label bar
 * above it when labelled; the selected item is drawn in the brand colour. The split price stays
 * left to right in right-to-left pages, as numbers do. Its figures and labels are 12px at the
 * least: a price a visitor cannot read is not one they can believe (the walk checks it).
 */
export const PLAN_PICKER_CSS = `
.plan-picker{display:flex;flex-direction:column;gap:12px;margin:0 0 16px}
.plan-picker__item{display:flex;flex-direction:column;border:2px solid color-mix(in srgb,var(--ink) 14%,transparent);
  border-radius:12px;background:var(--surface);color:var(--ink);cursor:pointer;overflow:hidden;
  -webkit-tap-highlight-color:transparent}
.plan-picker__item--selected{border-color:var(--brand)}
.plan-picker__label{display:block;height:18px;line-height:18px;padding-inline:8px;text-align:center;
  font-size:12px;font-weight:700;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;
  background:color-mix(in srgb,var(--muted) 22%,transparent)}
.plan-picker__item--selected .plan-picker__label{background:var(--brand);color:var(--brand-ink)}
.plan-picker__body{display:flex;align-items:center;gap:12px;height:78px;padding-inline:14px}
.plan-picker__check{flex:none;width:22px;height:22px;border-radius:50%;border:2px solid var(--muted)}
.plan-picker__item--selected .plan-picker__check{border:7px solid var(--brand)}
.plan-picker__main{display:flex;flex:1;flex-direction:column;min-width:0}
.plan-picker__duration{font-size:16px;font-weight:700;line-height:1.2}
.plan-picker__full{font-size:13px;color:var(--muted)}
.plan-picker__old{color:var(--muted);font-size:12px}
.plan-picker__price{display:flex;flex-direction:column;align-items:flex-end}
.plan-picker__amount{display:flex;align-items:flex-start;direction:ltr;line-height:1}
.plan-picker__sign{font-size:14px;font-weight:700;margin-top:3px}
.plan-picker__sign--after{margin-inline-start:3px}
[dir=rtl] .plan-picker__sign--after{order:-1;margin:3px 3px 0 0}
.plan-picker__whole{font-size:34px;font-weight:800;letter-spacing:-.02em}
.plan-picker__tail{display:flex;flex-direction:column;margin-inline-start:2px}
.plan-picker__cents{font-size:14px;font-weight:700}
.plan-picker__period{font-size:12px;color:var(--muted);white-space:nowrap}
`;
