import type { ComponentType } from 'react';
import type { ScreenId } from '../shared/screens';
import { StepScreen } from './StepScreen';
import type { ScreenProps } from './types';

export interface ScreenDefinition {
  Component: ComponentType<ScreenProps>;
  /** Where Continue leads when the screen is opened outside the visitor's flow. */
  offFlowNext: ScreenId | null;
  /** Images the screen shows, fetched ahead while the visitor is on the screen before it. */
  images?: readonly string[];
}

function step(offFlowNext: ScreenId | null): ScreenDefinition {
  return { Component: StepScreen, offFlowNext };
}

export const SCREENS: Record<ScreenId, ScreenDefinition> = {
  one_pager: step('searching'),
  one_pager_all: step('searching_2'),
  one_pager_ai: step('searching_ai'),
  one_pager_l1: step('searching'),
  one_pager_l2: step('searching'),
  searching: step('signup'),
  searching_2: step('signup_testim'),
  searching_ai: step('signup'),
  signup: step('checkout_v3_tr'),
  signup_testim: step('paycheck1_pr5_h_win'),
  features: step('checkout_v3_tr'),
  checkout_v3_tr: step('upsell_an_private'),
  checkout_h3_pp: step('upsell_an_private'),
  checkout_v3_pp: step('upsell_an_private'),
  checkout_h3_pp_braintree: step('upsell_an_private'),
  paycheck1_pr5_h_win: step('upsell_an_private'),
  paycheck1_pr5_h_ai: step('upsell_an_private'),
  paycheck_combo_3d: step('upsell_an_private'),
  upsell_an_private: step('upsell_guide'),
  upsell_guide: step('success'),
  success: step(null),
  payment_declined: step('checkout_v3_tr'),
  'auto-signup': step('checkout-test'),
  'checkout-test': step('success'),
};
