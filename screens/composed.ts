import type { DrawnScreen } from '../shared/screens';
import { END_COMPOSED } from './after/section-specs';
import type { ComposedDefinition } from './kit/arrangement';
import { LANDING_COMPOSED } from './landing/section-specs';
import { FEATURES_COMPOSED } from './plans/features-section-specs';
import { PAYWALL_COMPOSED } from './plans/paywall-section-specs';
import { UPSELL_COMPOSED } from './plans/upsell-section-specs';
import { SEARCHING_COMPOSED } from './searching/section-specs';
import { SIGNUP_COMPOSED } from './signup/section-specs';

/**
 * The screens made of sections, which a marketer's content may arrange (worker/content/). The
 * development screens (auto-signup, checkout-test: the internal Stripe test flow) are drawn by
 * their own components and take no arrangement.
 */
export const COMPOSED_SCREENS: Partial<Record<DrawnScreen, ComposedDefinition>> = {
  ...LANDING_COMPOSED,
  ...SEARCHING_COMPOSED,
  ...SIGNUP_COMPOSED,
  ...FEATURES_COMPOSED,
  ...PAYWALL_COMPOSED,
  ...UPSELL_COMPOSED,
  ...END_COMPOSED,
};
