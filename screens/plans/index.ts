import { StepScreen } from '../StepScreen';
import type { AreaScreens } from '../types';

export const PLANS_SCREENS = {
  features: { Component: StepScreen, offFlowNext: 'checkout_v3_tr' },
  checkout_v3_tr: { Component: StepScreen, offFlowNext: 'upsell_an_private' },
  checkout_h3_pp: { Component: StepScreen, offFlowNext: 'upsell_an_private' },
  checkout_v3_pp: { Component: StepScreen, offFlowNext: 'upsell_an_private' },
  checkout_h3_pp_braintree: { Component: StepScreen, offFlowNext: 'upsell_an_private' },
  paycheck1_pr5_h_win: { Component: StepScreen, offFlowNext: 'upsell_an_private' },
  paycheck1_pr5_h_ai: { Component: StepScreen, offFlowNext: 'upsell_an_private' },
  paycheck_combo_3d: { Component: StepScreen, offFlowNext: 'upsell_an_private' },
  upsell_an_private: { Component: StepScreen, offFlowNext: 'upsell_guide' },
  upsell_guide: { Component: StepScreen, offFlowNext: 'success' },
  'checkout-test': { Component: StepScreen, offFlowNext: 'success' },
} satisfies AreaScreens;
