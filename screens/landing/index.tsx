import { composedScreen } from '../kit/composition';
import { REVIEW_AVATARS } from '../kit/review-portraits';
import type { AreaScreens } from '../types';
import { LANDING_COMPOSED, type LANDING_COMPOSITIONS } from './section-specs';
import { LANDING_SECTIONS } from './sections';

type LandingId = keyof typeof LANDING_COMPOSITIONS;

/** A landing drawn from its composition, as a marketer's content arranges it. */
function landing(id: LandingId, offFlowNext: 'searching' | 'searching_2' | 'searching_ai') {
  const { composition } = LANDING_COMPOSED[id];
  return {
    Component: composedScreen(composition, LANDING_SECTIONS),
    offFlowNext,
    images: REVIEW_AVATARS,
    phoneForm: true as const,
  };
}

export const LANDING_SCREENS = {
  one_pager: landing('one_pager', 'searching'),
  one_pager_all: landing('one_pager_all', 'searching_2'),
  one_pager_ai: landing('one_pager_ai', 'searching_ai'),
  one_pager_l1: landing('one_pager_l1', 'searching'),
  one_pager_l2: landing('one_pager_l2', 'searching'),
} satisfies AreaScreens;
