import type { AreaScreens } from '../types';
import { Searching, Searching2, SearchingAi } from './SearchingVariants';

/** Continue is pinned to the bottom (SPEC.md §2 Layout): in reach while the search runs. */
export const SEARCHING_SCREENS = {
  searching: {
    Component: Searching,
    offFlowNext: 'signup',
    takesPostedPhone: true,
    bottomButton: true,
  },
  searching_2: {
    Component: Searching2,
    offFlowNext: 'signup_testim',
    takesPostedPhone: true,
    bottomButton: true,
  },
  searching_ai: {
    Component: SearchingAi,
    offFlowNext: 'signup',
    takesPostedPhone: true,
    bottomButton: true,
  },
} satisfies AreaScreens;
