import { type ComposedDefinition, ComposedScreen } from '../kit/composition';
import type { AreaScreens, ScreenProps } from '../types';
import { REVIEW_AVATARS } from './Reviews';
import { LANDING_COMPOSITIONS, LANDING_SECTIONS } from './sections';

type LandingId = keyof typeof LANDING_COMPOSITIONS;

const composedLanding = (id: LandingId): ComposedDefinition => ({
  slot: 'landing',
  composition: LANDING_COMPOSITIONS[id],
  catalogue: LANDING_SECTIONS,
});

/** Each landing's sections: its composition, and the landing slot's catalogue of sections. */
export const LANDING_COMPOSED: Record<LandingId, ComposedDefinition> = {
  one_pager: composedLanding('one_pager'),
  one_pager_all: composedLanding('one_pager_all'),
  one_pager_ai: composedLanding('one_pager_ai'),
  one_pager_l1: composedLanding('one_pager_l1'),
  one_pager_l2: composedLanding('one_pager_l2'),
};

/** A landing drawn from its composition, as a marketer's content arranges it. */
function landing(id: LandingId, offFlowNext: 'searching' | 'searching_2' | 'searching_ai') {
  const { composition, catalogue } = LANDING_COMPOSED[id];
  return {
    Component: (props: ScreenProps) => (
      <ComposedScreen props={props} composition={composition} catalogue={catalogue} />
    ),
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
