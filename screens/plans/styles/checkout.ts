/**
 * Checkout pieces (SPEC.md §2): the payment-method choice as stacked rows (v3) or side-by-side
 * tabs 5px apart (h3), the card form (fields 51px high like the phone input, SPEC.md §9), the
 * order summary, the variant's headline and the disclosure under the plans. The one-click methods
 * (SPEC.md §2 "one-click payment"): the wallet button spans the form like Pay; PayPal's container
 * keeps room for PayPal's 45px button, as tall as the loading note it replaces, so nothing below
 * moves when PayPal's iframe arrives. A payment error stands above Pay in the kit's error red (the
 * email input's), taking no room while there is none.
 */
export const CHECKOUT_CSS = `
.plan-choice{margin:0 0 16px}
.plan-choice__disclosure{margin:8px 0 0;font-size:13px;color:var(--muted)}
.order-summary{margin:16px 0 0;padding:12px 16px;border-radius:12px;background:var(--surface)}
.order-summary__title{margin:0 0 8px;font-size:16px}
.order-summary__rows{margin:0}
.order-summary__row{display:flex;justify-content:space-between;gap:12px;padding:4px 0}
.order-summary__row dd{margin:0;font-variant-numeric:tabular-nums}
.order-summary__row--discount dd{color:var(--brand);font-weight:600}
.order-summary__row--total{margin-top:4px;padding-top:8px;border-top:1px solid color-mix(in srgb,var(--ink) 14%,transparent);
  font-weight:700}
.checkout-callout{margin:0 0 16px;padding:12px 16px;border:2px dashed var(--brand);border-radius:12px;
  background:var(--surface)}
.checkout-callout__title{margin:0;font-size:17px;font-weight:700}
.checkout-callout__text{margin:2px 0 0;color:var(--muted)}
.payment-methods{margin:0 0 16px}
.payment-methods__options{display:flex;flex-direction:column;gap:8px}
.payment-methods__option{display:flex;align-items:center;gap:10px;min-height:56px;padding-inline:14px;
  border:2px solid color-mix(in srgb,var(--ink) 14%,transparent);border-radius:12px;background:var(--surface);
  cursor:pointer}
.payment-methods__option--selected{border-color:var(--brand)}
.payment-methods__radio{flex:none;width:20px;height:20px;border-radius:50%;border:2px solid var(--muted)}
.payment-methods__option--selected .payment-methods__radio{border:6px solid var(--brand)}
.payment-methods__label{flex:1;font-weight:600}
.payment-methods__images{display:flex;gap:4px}
.payment-methods__images img{display:block;width:36px;height:24px}
.payment-methods--horizontal .payment-methods__options{display:grid;grid-auto-flow:column;grid-auto-columns:1fr;
  gap:5px;padding:4px;border-radius:12px;background:color-mix(in srgb,var(--muted) 16%,transparent)}
.payment-methods--horizontal .payment-methods__option{flex-direction:column;justify-content:center;gap:4px;
  padding:6px;border-color:transparent;background:none;text-align:center;font-size:14px}
.payment-methods--horizontal .payment-methods__option--selected{border-color:var(--brand);background:var(--surface)}
.payment-methods--horizontal .payment-methods__radio{display:none}
.payment-methods--horizontal .payment-methods__label{flex:none}
.payment-methods__panel{margin-top:12px}
.payment-methods__note{margin:0;min-height:45px;padding:12px 16px;border-radius:12px;background:var(--surface);
  color:var(--muted)}
.payment-methods__paypal{min-height:45px}
.payment-methods__wallet{width:100%}
.payment-methods__error{margin:0 0 12px;color:#b42318;font-weight:600}
.payment-methods__error:empty{margin:0}
.card-form{margin:0;padding:0;border:0;min-width:0}
.card-form__title{padding:0;margin:0 0 8px;font-weight:700}
.card-form__field{display:block;margin:0 0 12px}
.card-form__label{display:block;margin:0 0 4px;font-size:14px;color:var(--muted)}
.card-form__input{display:block;width:100%;height:51px;padding-inline:14px;border:1px solid color-mix(in srgb,var(--ink) 22%,transparent);
  border-radius:12px;background:var(--surface);color:var(--ink);font:16px var(--font)}
.card-form__input:focus{border-color:var(--brand)}
.card-form__row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
`;
