import { StepScreen } from '../StepScreen';
import type { AreaScreens } from '../types';

export const LANDING_SCREENS = {
  one_pager: { Component: StepScreen, offFlowNext: 'searching' },
  one_pager_all: { Component: StepScreen, offFlowNext: 'searching_2' },
  one_pager_ai: { Component: StepScreen, offFlowNext: 'searching_ai' },
  one_pager_l1: { Component: StepScreen, offFlowNext: 'searching' },
  one_pager_l2: { Component: StepScreen, offFlowNext: 'searching' },
} satisfies AreaScreens;
