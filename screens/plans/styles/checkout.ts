import { CARD_FRAME_HEIGHT } from '../../../shared/test-gateway-protocol';

/**
 * The card form alone (fields, the provider's box and frame, the 3-D Secure sheet): the
 * checkout's, and the subscriber's page's "Pay what is due" (islands/PayDue.tsx).
 */
export const CARD_FORM_CSS = `
.card-form{margin:0;padding:0;border:0;min-width:0}
.card-form__title{padding:0;margin:0 0 8px;font-weight:700}
.card-form__body{position:relative;margin:0 0 12px}
.card-form__body--reserved{min-height:${CARD_FRAME_HEIGHT - 6}px}
.card-form__notice{margin:0;padding:12px 16px;border-radius:12px;background:var(--surface);color:var(--muted)}
.card-form__body--reserved .card-form__notice{position:absolute;inset:0;display:grid;place-items:center}
.card-frame{display:block;width:calc(100% + 6px);height:${CARD_FRAME_HEIGHT}px;margin:-3px;border:0}
.card-form__provider:has(.card-field){display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px}
.card-field--number{grid-column:1/-1}
.card-field__label{display:block;margin:0 0 4px;font-size:14px;line-height:20px;color:var(--muted)}
.card-field__input{box-sizing:border-box;height:51px;padding:15px 14px;border:1px solid color-mix(in srgb,var(--ink) 22%,transparent);
  border-radius:12px;background:var(--surface)}
.card-field__input--focus{border-color:var(--brand);box-shadow:0 0 0 3px color-mix(in srgb,var(--brand) 25%,transparent)}
.card-field__input--invalid{border-color:#b42318}
.card-field__error{margin:4px 0 0;color:#b42318;font-size:14px}
.tgw-challenge{box-sizing:border-box;width:min(440px,100% - 32px);max-width:none;height:min(380px,100% - 32px);
  max-height:none;padding:0;border:0;border-radius:16px;overflow:hidden;background:var(--surface);
  box-shadow:0 24px 48px color-mix(in srgb,var(--ink) 30%,transparent)}
.tgw-challenge::backdrop{background:color-mix(in srgb,var(--ink) 55%,transparent)}
.tgw-challenge__frame{display:block;width:100%;height:100%;border:0}
@media (max-width:599px){.tgw-challenge{width:100%;margin:auto 0 0;border-radius:16px 16px 0 0}}
.card-form__field{display:block;margin:0 0 12px}
.card-form__label{display:block;margin:0 0 4px;font-size:14px;color:var(--muted)}
.card-form__input{display:block;width:100%;height:51px;padding-inline:14px;border:1px solid color-mix(in srgb,var(--ink) 22%,transparent);
  border-radius:12px;background:var(--surface);color:var(--ink);font:16px var(--font)}
.card-form__input:focus{border-color:var(--brand)}
.card-form__row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
`;

/**
 * Checkout pieces (SPEC.md §2): the payment-method choice as stacked rows (v3) or side-by-side
 * tabs 5px apart (h3), the card form (fields 51px high like the phone input, SPEC.md §9), the
 * order summary, the variant's headline and the disclosure under the plans. The card provider's
 * box keeps its fields' height (CARD_FRAME_HEIGHT of shared/test-gateway-protocol.ts, two rows of
 * label and 51px field) before they load, so nothing moves when they arrive; the frame reaches
 * 3px past the column on every side, its room for the focus ring, so its fields line up with ours; Stripe's and
 * Braintree's slots are laid out as the test gateway's frame is. The one-click methods (SPEC.md §2
 * "one-click payment") come under Pay once the browser says it can pay that way (above the card,
 * the divider under them, where a gated screen leads with them; the form waits behind its gate
 * laid out but unseen): rows (v3) or side by side 5px apart (h3); PayPal's container keeps room for its 45px button. A payment error stands
 * above Pay in the kit's error red (the email input's), taking no room while there is none. The
 * test gateway's 3-D Secure step is a sheet: from the bottom on a phone, centred from 600px.
 * Pay's card ends with the total charged today, the consent box where the country asks for
 * one, Pay naming the amount, and the renewal terms right under it at body contrast (not the
 * disclosure's muted 13px): the terms a visitor agrees to stand beside the press. Below 992px,
 * one column, that block is a bar stuck to the bottom of the window until the page reaches its
 * place, so the amount, the terms and Pay stay in view while the card is typed; the page's
 * scroll padding keeps a focused field above the bar rather than under it.
 */
export const CHECKOUT_CSS = `
.plan-choice{margin:0 0 16px}
.plan-choice__disclosure{margin:8px 0 0;font-size:13px;color:var(--muted)}
.plan-choice__tax{margin:8px 0 0;font-size:13px;color:var(--ink)}
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
.payment-methods__one-click{margin-top:16px}
.payment-methods__one-click--first{margin:0 0 16px}
.payment-methods__one-click--first .payment-methods__or{margin:16px 0 0}
.payment-methods.payment-methods--behind-gate{visibility:hidden;height:0;margin:0;overflow:hidden}
.payment-methods__or{display:flex;align-items:center;gap:12px;margin:0 0 12px;color:var(--muted);font-size:14px}
.payment-methods__or::before,.payment-methods__or::after{content:"";flex:1;border-top:1px solid color-mix(in srgb,var(--ink) 14%,transparent)}
.payment-methods__options{display:flex;flex-direction:column;gap:8px}
.payment-methods--horizontal .payment-methods__options{display:grid;grid-auto-flow:column;grid-auto-columns:1fr;gap:5px}
.payment-methods__wallet{width:100%;border:0;background:var(--ink);color:var(--surface);font-weight:600}
.payment-methods__paypal{min-height:45px}
.payment-methods__error{margin:0 0 12px;color:#b42318;font-weight:600}
.payment-methods__error:empty{margin:0}
.payment-methods__other-provider .button{width:100%;margin:0 0 12px}
.pay-card__total{display:flex;justify-content:space-between;gap:12px;margin:0 0 12px;font-size:17px;font-weight:700}
.pay-card__amount{font-variant-numeric:tabular-nums}
.pay-card__consent{margin:0 0 12px}
.pay-card__consent-label{display:flex;gap:10px;align-items:flex-start;font-size:15px;line-height:1.4;color:var(--ink);cursor:pointer}
.pay-card__checkbox{flex:none;width:20px;height:20px;margin:1px 0 0;accent-color:var(--brand)}
.pay-card__consent-error{margin:4px 0 0;color:#b42318;font-size:15px;font-weight:600}
.pay-card__consent-error:empty{margin:0}
.pay-card__terms{margin:8px 0 0;font-size:15px;line-height:1.4;color:var(--ink)}
.card-form__sign-up{color:var(--brand);font-weight:600}
@media (max-width:991px){
html:has(.pay-card__action){scroll-padding-bottom:min(340px,50vh)}
.pay-card__action{position:sticky;bottom:0;z-index:2;padding:12px 0;background:var(--canvas);
  box-shadow:0 0 0 100vmax var(--canvas),0 -1px 0 100vmax color-mix(in srgb,var(--ink) 14%,transparent);
  clip-path:inset(-1px -100vmax 0)}
}
${CARD_FORM_CSS}`;
