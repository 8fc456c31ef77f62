import type { ComposedDefinition, Composition, SectionSpec } from '../kit/arrangement';
import { actionSpec, KIT_SECTION_SPECS, SCREEN_HEADING_SPEC } from '../kit/section-specs';

/**
 * What every upsell shows: its heading (the screen's one h1), the upsell choice (the offer,
 * bought in one click with the payment method on file) and a clear Skip are required; the trust
 * labels and the support links a marketer may add. What the offer costs and how it renews is the
 * plan's own wording (shared/plans/), never a marketer's: only the call to action is.
 */
const UPSELL_SPECS = {
  heading: SCREEN_HEADING_SPEC,
  trust: KIT_SECTION_SPECS.trust,
  support: KIT_SECTION_SPECS.support,
} satisfies Record<string, SectionSpec>;

/**
 * The anonymous mode and private chat upsell's sections: its discount badge and what it adds are
 * a marketer's to move or hide; the plan picker with its Buy is the choice.
 */
export const UPSELL_PRIVATE_SECTION_SPECS = {
  /** The discount badge, while the discount is real, and the offer countdown that ends it. */
  badge: {
    copy: ['plans.upsell_private.badge', 'kit.offer.', 'kit.offer_deadline.'],
    maxChars: 40,
  },
  ...UPSELL_SPECS,
  features: {
    copy: [
      'plans.upsell_private.benefits_label',
      'plans.upsell_private.anonymous_title',
      'plans.upsell_private.anonymous_text',
      'plans.upsell_private.chat_title',
      'plans.upsell_private.chat_text',
    ],
    maxChars: 160,
  },
  choice: actionSpec(
    // The badge's words name the plan picker to a screen reader too.
    'plans.upsell_private.cta',
    'plans.upsell_private.badge',
  ),
  skip: actionSpec('plans.upsell_private.skip'),
} satisfies Record<string, SectionSpec>;

/** The safety-toolkit guide's sections: the guide with its price and the Buy are the choice. */
export const UPSELL_GUIDE_SECTION_SPECS = {
  ...UPSELL_SPECS,
  choice: {
    copy: [
      'plans.upsell_guide.contents_label',
      'plans.upsell_guide.contents.',
      'plans.upsell_guide.regular_price',
      'plans.upsell_guide.save',
      'plans.upsell_guide.cta',
    ],
    maxChars: 80,
    required: true,
  },
  skip: actionSpec('plans.upsell_guide.skip'),
} satisfies Record<string, SectionSpec>;

export type UpsellPrivateSection = keyof typeof UPSELL_PRIVATE_SECTION_SPECS;
export type UpsellGuideSection = keyof typeof UPSELL_GUIDE_SECTION_SPECS;

/** The two upsells of SPEC.md §2 as code composes them. */
export const UPSELL_PRIVATE_COMPOSITION: Composition<UpsellPrivateSection> = {
  className: 'screen upsell',
  sections: [
    { kind: 'badge' },
    { kind: 'heading' },
    { kind: 'features' },
    { kind: 'choice' },
    { kind: 'skip' },
  ],
};

export const UPSELL_GUIDE_COMPOSITION: Composition<UpsellGuideSection> = {
  className: 'screen upsell upsell--guide',
  sections: [{ kind: 'heading' }, { kind: 'choice' }, { kind: 'skip' }],
};

/** Each upsell's sections: its composition, and the upsell slot's catalogue for its offer. */
export const UPSELL_COMPOSED = {
  upsell_an_private: {
    slot: 'upsell',
    composition: UPSELL_PRIVATE_COMPOSITION,
    catalogue: UPSELL_PRIVATE_SECTION_SPECS,
  },
  upsell_guide: {
    slot: 'upsell',
    composition: UPSELL_GUIDE_COMPOSITION,
    catalogue: UPSELL_GUIDE_SECTION_SPECS,
  },
} satisfies Record<string, ComposedDefinition>;
