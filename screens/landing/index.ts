import type { AreaScreens } from '../types';
import { OnePager } from './OnePager';
import { OnePagerAi } from './OnePagerAi';
import { OnePagerAll } from './OnePagerAll';
import { OnePagerL1 } from './OnePagerL1';
import { OnePagerL2 } from './OnePagerL2';
import { REVIEW_AVATARS } from './Reviews';

export const LANDING_SCREENS = {
  one_pager: {
    Component: OnePager,
    offFlowNext: 'searching',
    images: REVIEW_AVATARS,
    phoneForm: true,
  },
  one_pager_all: {
    Component: OnePagerAll,
    offFlowNext: 'searching_2',
    images: REVIEW_AVATARS,
    phoneForm: true,
  },
  one_pager_ai: {
    Component: OnePagerAi,
    offFlowNext: 'searching_ai',
    images: REVIEW_AVATARS,
    phoneForm: true,
  },
  one_pager_l1: {
    Component: OnePagerL1,
    offFlowNext: 'searching',
    images: REVIEW_AVATARS,
    phoneForm: true,
  },
  one_pager_l2: {
    Component: OnePagerL2,
    offFlowNext: 'searching',
    images: REVIEW_AVATARS,
    phoneForm: true,
  },
} satisfies AreaScreens;
