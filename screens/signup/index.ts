import type { AreaScreens } from '../types';
import { SignupScreen } from './SignupScreen';

export const SIGNUP_SCREENS = {
  signup: { Component: SignupScreen, offFlowNext: 'checkout_v3_tr', signUpForm: true },
  signup_testim: { Component: SignupScreen, offFlowNext: 'paycheck1_pr5_h_win', signUpForm: true },
} satisfies AreaScreens;
