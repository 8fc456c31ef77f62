import { atom } from 'nanostores';
import { browserOnly } from './browser-only';

/**
 * Whether the visitor's offer countdown reached zero on this page (islands/kit/OfferCountdown):
 * the plan picker and the upsell's purchase then show and charge the regular prices the server
 * sent beside the offer's. Not persisted: each page starts from what the server rendered, which
 * knows the deadline (worker/purchases/offer-deadline.ts).
 */
export const $offerEnded = browserOnly(atom(false), 'offer');
