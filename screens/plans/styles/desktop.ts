import { splitCss } from '../../kit/styles/split';

/**
 * Desktop (SPEC.md §9, from 992): the checkouts and the combo paywall put the payment form, on
 * a card of its own, beside the plans and their summary; the upsells their offer beside what it
 * includes; the features screen its list beside the heading, Continue under the heading
 * (screens/kit/styles/bottom-button.ts). The result paywalls show their plans as cards in a
 * row under one centred column, the call to action under them. The checkouts' pay card is
 * sticky, so its total, Pay and the terms stay in view beside the plans however far they go.
 */
export const PLANS_DESKTOP_CSS = `${splitCss({
  // The success screen carries these styles too (MONEY_CSS in screens/registry.ts): on a
  // computer the QR code is the way onto the phone, so it takes a column of its own.
  screens: ['.checkout', '.paywall--combo', '.upsell', '.features', '.success'],
  sides: [
    '[data-island=CheckoutPayment]',
    '.plan-features',
    '.guide-offer',
    '[data-island=DeeplinkQr]',
  ],
})}
@media (min-width:992px){
:is(.checkout,.paywall--combo)>[data-island=CheckoutPayment]{padding:24px;border-radius:16px;
  background:var(--surface);box-shadow:0 1px 3px color-mix(in srgb,var(--ink) 10%,transparent)}
:is(.checkout,.paywall--combo)>[data-island=CheckoutPayment]>:last-child{margin-bottom:0}
:is(.checkout,.paywall--combo)>[data-island=CheckoutPayment]{position:sticky;top:16px;align-self:start}
.page:has(>.paywall:not(.paywall--combo)){max-width:992px}
.paywall:not(.paywall--combo)>*{max-width:560px;margin-inline:auto}
.paywall:not(.paywall--combo)>[data-island=PlanChoice]{max-width:none}
.paywall:not(.paywall--combo) .plan-picker{flex-direction:row;align-items:flex-end}
.paywall:not(.paywall--combo) .plan-picker__item{flex:1 1 0;min-width:0}
.paywall:not(.paywall--combo) .plan-choice__disclosure{text-align:center}
.upsell__badge{justify-self:start}
.features>.plan-features{grid-template-columns:1fr 1fr;margin:0}
.success>[data-island=DeeplinkQr]{padding:24px;border-radius:16px;background:var(--surface)}
.features__users,.features__guarantee{text-align:start}
}`;
