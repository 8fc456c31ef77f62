import { composedScreen } from '../kit/composition';
import type { AreaScreens } from '../types';
import { SIGNUP_COMPOSED } from './section-specs';
import { SIGNUP_SECTIONS } from './sections';

/**
 * The signup screens (SPEC.md §2): the 'number located' banner with the visitor's number, email
 * capture with domain shortcuts, an 'or' divider and Continue with Google, both creating the
 * account through the worker (SPEC.md §4 Signup), drawn from their sections as a marketer's
 * content arranges them.
 */
function signup(id: keyof typeof SIGNUP_COMPOSED) {
  const { composition } = SIGNUP_COMPOSED[id];
  return composedScreen(composition, SIGNUP_SECTIONS);
}

export const SIGNUP_SCREENS = {
  signup: { Component: signup('signup'), offFlowNext: 'checkout_v3_tr', signUpForm: true },
  signup_testim: {
    Component: signup('signup_testim'),
    offFlowNext: 'paycheck1_pr5_h_win',
    signUpForm: true,
  },
} satisfies AreaScreens;
