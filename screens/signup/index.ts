import { StepScreen } from '../StepScreen';
import type { AreaScreens } from '../types';

export const SIGNUP_SCREENS = {
  signup: { Component: StepScreen, offFlowNext: 'checkout_v3_tr' },
  signup_testim: { Component: StepScreen, offFlowNext: 'paycheck1_pr5_h_win' },
} satisfies AreaScreens;
