/**
 * The payment receipt (islands/PaymentReceipt.tsx): the checkout's modal dialog after the main
 * charge, centred over a dimmed page and scrolling inside itself on a short screen, and the same
 * rows as success's order summary. Long values wrap rather than widen the box (an email only
 * before its '@', each part a block that breaks inside itself only when wider than the line), and a
 * value with too little room beside its label goes under it. The backdrop is outside the page's
 * tree, where Chromium before 122 resolves no custom property: a system colour dims it.
 */
export const RECEIPT_CSS = `
.receipt--dialog{box-sizing:border-box;width:min(calc(100% - 32px),440px);max-height:calc(100% - 32px);
  margin:auto;padding:24px 20px;overflow:auto;border:0;border-radius:16px;background:var(--surface);color:var(--ink);
  box-shadow:0 16px 48px color-mix(in srgb,var(--ink) 28%,transparent)}
.receipt--dialog::backdrop{background:color-mix(in srgb,CanvasText 55%,transparent)}
.receipt--summary{margin:24px 0}
.receipt__title{display:flex;align-items:center;gap:10px;margin:0 0 4px;font-size:22px;line-height:1.2}
.receipt--summary .receipt__title{margin:0 0 8px;font-size:18px}
.receipt__tick{position:relative;flex:none;width:32px;height:32px;border-radius:50%;background:var(--brand)}
.receipt__tick::after{content:'';position:absolute;inset-inline-start:11px;top:6px;width:8px;height:15px;
  border:solid var(--brand-ink);border-width:0 3px 3px 0;transform:rotate(45deg)}
.receipt__lead{margin:0 0 16px;color:var(--muted)}
.receipt__rows{margin:0 0 12px;padding:4px 16px;border:1px solid color-mix(in srgb,var(--ink) 12%,transparent);
  border-radius:12px;background:var(--surface)}
.receipt__row{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;column-gap:12px;
  padding:8px 0}
.receipt__row+.receipt__row{border-top:1px solid color-mix(in srgb,var(--ink) 10%,transparent)}
.receipt__row dt{flex:none;color:var(--muted)}
.receipt__row dd{flex:1 1 9em;min-width:0;margin:0;font-weight:600;text-align:end;overflow-wrap:anywhere;
  font-variant-numeric:tabular-nums}
.receipt__email-part{display:inline-block;max-width:100%}
.receipt__detail{display:block;font-weight:400;color:var(--muted)}
.receipt__cancel{margin:0 0 16px;font-size:14px;color:var(--ink)}
.receipt__manage{margin:-8px 0 16px;font-size:14px}
.receipt__manage a{color:var(--ink)}
.receipt__contract{display:flex;flex-wrap:wrap;gap:4px 16px}
.upsell-charge{margin:16px 0 8px;font-weight:600;text-align:center}
.upsell-charge__method{white-space:nowrap}
`;
