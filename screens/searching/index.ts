import { StepScreen } from '../StepScreen';
import type { AreaScreens } from '../types';

export const SEARCHING_SCREENS = {
  searching: { Component: StepScreen, offFlowNext: 'signup' },
  searching_2: { Component: StepScreen, offFlowNext: 'signup_testim' },
  searching_ai: { Component: StepScreen, offFlowNext: 'signup' },
} satisfies AreaScreens;
