import { StepScreen } from '../StepScreen';
import type { AreaScreens } from '../types';

export const AFTER_SCREENS = {
  success: { Component: StepScreen, offFlowNext: null },
  payment_declined: { Component: StepScreen, offFlowNext: 'checkout_v3_tr' },
  'auto-signup': { Component: StepScreen, offFlowNext: 'checkout-test' },
} satisfies AreaScreens;
