import { PROVIDER_LOGOS } from '../kit/ProviderLogo';
import type { AreaScreens } from '../types';
import { checkoutScreen } from './CheckoutScreen';
import { CheckoutTestScreen } from './CheckoutTestScreen';
import { ComboPaywallScreen } from './ComboPaywallScreen';
import { CHECKOUT_VARIANTS, checkoutImages } from './checkout-variants';
import { FeaturesScreen } from './FeaturesScreen';
import { paywallScreen } from './PaywallScreen';
import { CHECKOUT_IMAGES } from './payment-images';
import { FEATURES_WIDE_CSS } from './styles/features';
import { UpsellGuideScreen } from './UpsellGuideScreen';
import { UpsellPrivateScreen } from './UpsellPrivateScreen';

/** SPEC.md §2: checkout screens preload their card-brand, wallet and provider images. */
const images = [...CHECKOUT_IMAGES, PROVIDER_LOGOS.stripe.src];

export const PLANS_SCREENS = {
  features: {
    Component: FeaturesScreen,
    offFlowNext: 'checkout_v3_tr',
    bottomButton: true,
    css: FEATURES_WIDE_CSS,
  },
  checkout_v3_tr: {
    Component: checkoutScreen('checkout_v3_tr'),
    offFlowNext: 'upsell_an_private',
    images: checkoutImages(CHECKOUT_VARIANTS.checkout_v3_tr),
  },
  checkout_h3_pp: {
    Component: checkoutScreen('checkout_h3_pp'),
    offFlowNext: 'upsell_an_private',
    images: checkoutImages(CHECKOUT_VARIANTS.checkout_h3_pp),
  },
  checkout_v3_pp: {
    Component: checkoutScreen('checkout_v3_pp'),
    offFlowNext: 'upsell_an_private',
    images: checkoutImages(CHECKOUT_VARIANTS.checkout_v3_pp),
  },
  checkout_h3_pp_braintree: {
    Component: checkoutScreen('checkout_h3_pp_braintree'),
    offFlowNext: 'upsell_an_private',
    images: checkoutImages(CHECKOUT_VARIANTS.checkout_h3_pp_braintree),
  },
  paycheck1_pr5_h_win: {
    Component: paywallScreen('win'),
    offFlowNext: 'upsell_an_private',
  },
  paycheck1_pr5_h_ai: {
    Component: paywallScreen('ai'),
    offFlowNext: 'upsell_an_private',
  },
  paycheck_combo_3d: { Component: ComboPaywallScreen, offFlowNext: 'upsell_an_private', images },
  upsell_an_private: { Component: UpsellPrivateScreen, offFlowNext: 'upsell_guide' },
  upsell_guide: { Component: UpsellGuideScreen, offFlowNext: 'success' },
  'checkout-test': { Component: CheckoutTestScreen, offFlowNext: 'success', images },
} satisfies AreaScreens;
