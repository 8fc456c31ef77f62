import type { AreaScreens } from '../types';
import { Searching, Searching2, SearchingAi } from './SearchingVariants';

export const SEARCHING_SCREENS = {
  searching: { Component: Searching, offFlowNext: 'signup', takesPostedPhone: true },
  searching_2: { Component: Searching2, offFlowNext: 'signup_testim', takesPostedPhone: true },
  searching_ai: { Component: SearchingAi, offFlowNext: 'signup', takesPostedPhone: true },
} satisfies AreaScreens;
