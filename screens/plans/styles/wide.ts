import { splitCss } from '../../kit/styles/split';

/**
 * From a tablet's 768 (two columns about a phone's width each) and on a desktop (the features
 * screen's wide layout is its own page's: ./features.ts):
 * - the success screen (its page carries these styles too: MONEY_CSS in screens/registry.ts):
 *   on a computer the QR code is the way onto the phone, so it takes the end column with the
 *   steps to log in by hand (its composition groups them), the download and the app's pictures
 *   in the start column;
 * - the guide upsell: the offer beside the heading and its button;
 * - the private-mode upsell: the plans under the heading in the start column; what the add-on
 *   includes, the charge line, its button and "No, thanks" in the end column, as a checkout's
 *   pay card stands beside its plans. Its pieces have rows of their own (the features span the
 *   heading's rows, the plans every row from the button's down) so that neither column waits
 *   on the other's heights; the markup and its reading order stay the phone's.
 */
const PRIVATE = '.upsell:not(.upsell--guide):has(>.plan-features)';

export const WIDE_CSS = `${splitCss({
  screens: ['.success', '.upsell--guide'],
  sides: ['.success__aside', '.guide-offer'],
  from: 768,
})}
@media (min-width:768px){
.success>.success__aside>[data-island=DeeplinkQr]{padding:24px;border-radius:16px;background:var(--surface)}
.page:has(>.upsell:not(.upsell--guide)>.plan-features){max-width:992px}
${PRIVATE}{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);grid-template-rows:repeat(3,auto) auto auto 1fr;column-gap:32px;align-items:start}
${PRIVATE}>*{grid-column:1}
${PRIVATE}>.upsell__badge{grid-row:1;justify-self:start}
${PRIVATE}>h1{grid-row:2}
${PRIVATE}>.lead{grid-row:3}
${PRIVATE}>.plan-features{grid-column:2;grid-row:1/4;margin:0}
${PRIVATE}>[data-island=PlanChoice]{grid-row:4/-1}
${PRIVATE}>[data-island=UpsellPurchase]{grid-column:2;grid-row:4}
${PRIVATE}>.skip-form{grid-column:2;grid-row:5}
}
@media (min-width:992px){
${PRIVATE}{column-gap:48px}
}`;
