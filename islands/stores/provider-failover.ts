import { atom } from 'nanostores';
import { browserOnly } from './browser-only';

/**
 * The other provider's form, offered on the checkout itself (docs/payments.md, "A visitor already
 * paying when the provider fails"): true once the worker answered the visitor's stuck charge with
 * `provider_failed_other_offered` (the product API closed it unpaid and the worker's pin offers
 * the other provider), until the visitor takes it or presses Pay again. The worker decides; the
 * switch asks it again (islands/payments/provider-calls.ts switchToOtherProvider).
 */
export const $otherProviderOffer = browserOnly(atom(false), 'other-provider-offer');
