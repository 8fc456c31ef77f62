import type { ComposedDefinition, Composition, SectionSpec } from '../kit/arrangement';
import { actionSpec, KIT_SECTION_SPECS, SCREEN_HEADING_SPEC } from '../kit/section-specs';

/**
 * The sections the feature screen may show: its heading (the screen's one h1), the list of what
 * the app does (what the screen is for) and Continue (pinned to the bottom, so it moves the
 * visitor on from anywhere in the list) are required; the users line, the guarantee line, the
 * trust labels and the support links a marketer may reorder, hide or add.
 */
export const FEATURES_SECTION_SPECS = {
  heading: SCREEN_HEADING_SPEC,
  features: {
    copy: ['plans.features.label', 'plans.features.items.'],
    maxChars: 160,
    required: true,
  },
  users: {
    copy: ['plans.features.users'],
    maxChars: 80,
  },
  continue: actionSpec('continue'),
  guarantee: {
    copy: ['plans.guarantee.title'],
    maxChars: 60,
  },
  trust: KIT_SECTION_SPECS.trust,
  support: KIT_SECTION_SPECS.support,
} satisfies Record<string, SectionSpec>;

export type FeaturesSection = keyof typeof FEATURES_SECTION_SPECS;

/** The feature screen (SPEC.md §2) as code composes it. */
export const FEATURES_COMPOSITION: Composition<FeaturesSection> = {
  className: 'screen features',
  sections: [
    { kind: 'heading' },
    { kind: 'features' },
    { kind: 'users' },
    { kind: 'continue' },
    { kind: 'guarantee' },
  ],
};

/** The feature screen's sections: its composition, and its slot's catalogue. */
export const FEATURES_COMPOSED = {
  features: {
    slot: 'features',
    composition: FEATURES_COMPOSITION,
    catalogue: FEATURES_SECTION_SPECS,
  },
} satisfies Record<string, ComposedDefinition>;
