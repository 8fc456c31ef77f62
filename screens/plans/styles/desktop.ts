import { splitCss } from '../../kit/styles/split';
import { WIDE_CSS } from './wide';

/**
 * Desktop (SPEC.md §9, from 992): the checkouts and the combo paywall put the payment form, on
 * a card of its own, beside the plans and their summary; the card is sticky, so its total, Pay
 * and the terms stay in view beside the plans however far they go. Until its call to action
 * opens the form, the combo paywall is one centred column, the button on its card under the
 * summary: a card with only a button beside the plans left the end column bare. The result paywalls show
 * their plans as cards in a row under one centred column, the call to action under them. The
 * upsells and the success screen have columns from a tablet's width (./wide.ts), the features
 * screen its own wide layout (./features.ts).
 */
export const PLANS_DESKTOP_CSS = `${splitCss({
  screens: ['.checkout', '.paywall--combo'],
  sides: ['[data-island=CheckoutPayment]'],
})}
${WIDE_CSS}
@media (min-width:992px){
:is(.checkout,.paywall--combo)>[data-island=CheckoutPayment]{padding:24px;border-radius:16px;
  background:var(--surface);box-shadow:0 1px 3px color-mix(in srgb,var(--ink) 10%,transparent)}
:is(.checkout,.paywall--combo)>[data-island=CheckoutPayment]>:last-child{margin-bottom:0}
:is(.checkout,.paywall--combo)>[data-island=CheckoutPayment]{position:sticky;top:16px;align-self:start}
.paywall--combo:has(>[data-island=CheckoutPayment]>.continue-form){display:block}
.paywall--combo:has(>[data-island=CheckoutPayment]>.continue-form)>*{max-width:560px;margin-inline:auto}
.paywall--combo>[data-island=CheckoutPayment]:has(>.continue-form){position:static;margin-block:24px}
.page:has(>.paywall:not(.paywall--combo)){max-width:992px}
.paywall:not(.paywall--combo)>*{max-width:560px;margin-inline:auto}
.paywall:not(.paywall--combo)>[data-island=PlanChoice]{max-width:none}
.paywall:not(.paywall--combo) .plan-picker{flex-direction:row;align-items:flex-end}
.paywall:not(.paywall--combo) .plan-picker__item{flex:1 1 0;min-width:0}
.paywall:not(.paywall--combo) .plan-choice__disclosure{text-align:center}
}`;
