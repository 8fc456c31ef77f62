import { ART_CSS } from '../kit/styles/art';
import type { AreaScreens } from '../types';
import { AutoSignupScreen } from './AutoSignupScreen';
import { PaymentDeclinedScreen } from './PaymentDeclinedScreen';
import { SuccessScreen } from './SuccessScreen';

export const AFTER_SCREENS = {
  success: { Component: SuccessScreen, offFlowNext: null, css: ART_CSS },
  payment_declined: {
    Component: PaymentDeclinedScreen,
    offFlowNext: 'checkout_v3_tr',
    backToPaywall: true,
  },
  'auto-signup': { Component: AutoSignupScreen, offFlowNext: 'checkout-test' },
} satisfies AreaScreens;
