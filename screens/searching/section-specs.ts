import type { SearchVariant } from '../../islands/SearchProgress';
import type { ComposedDefinition, Composition, SectionSpec } from '../kit/arrangement';
import { KIT_SECTION_SPECS } from '../kit/section-specs';

/**
 * The sections a searching screen may show: its heading (the screen's one h1 and lead) and the
 * search (the progress, the number's details and map, and Continue, which moves the visitor on)
 * are required; the AI badge, the testimonials, the trust labels and the support links a
 * marketer may reorder, hide or add. The number's type names and the lookup's errors stay the
 * bundled copy's: only the search's own words are a marketer's.
 */
export const SEARCHING_SECTION_SPECS = {
  ai_badge: {
    copy: ['searching.ai_badge'],
    maxChars: 40,
  },
  heading: {
    copy: ['screens.{screen}.title', 'searching.lead', 'searching.ai_lead'],
    maxChars: 160,
    required: true,
  },
  search: {
    copy: [
      'searching.progress',
      'searching.steps.',
      'searching.ai_steps.',
      'searching.number',
      'searching.map',
      'searching.rows.',
      'searching.missing_title',
      'searching.missing_text',
      'searching.back',
      'kit.located.title',
      'kit.located.phone_label',
      'continue',
    ],
    maxChars: 80,
    required: true,
  },
  testimonials: {
    copy: ['signup.testimonials_label', 'signup.testimonials.'],
    maxChars: 200,
  },
  trust: KIT_SECTION_SPECS.trust,
  support: KIT_SECTION_SPECS.support,
} satisfies Record<string, SectionSpec>;

export type SearchingSection = keyof typeof SEARCHING_SECTION_SPECS;

/** A searching screen of SPEC.md §2 as code composes it: the AI one opens with its badge. */
function searchingComposition(variant: SearchVariant): Composition<SearchingSection> {
  return {
    className: `screen searching searching--${variant}`,
    sections: [
      ...(variant === 'ai' ? [{ kind: 'ai_badge' as const }] : []),
      { kind: 'heading' },
      { kind: 'search' },
    ],
  };
}

export const SEARCHING_COMPOSITIONS = {
  searching: searchingComposition('classic'),
  searching_2: searchingComposition('map_first'),
  searching_ai: searchingComposition('ai'),
} satisfies Record<string, Composition<SearchingSection>>;

const searchingScreen = (composition: Composition<SearchingSection>) => ({
  slot: 'searching',
  composition,
  catalogue: SEARCHING_SECTION_SPECS,
});

/** Each searching screen's sections: its composition, and the searching slot's catalogue. */
export const SEARCHING_COMPOSED = {
  searching: searchingScreen(SEARCHING_COMPOSITIONS.searching),
  searching_2: searchingScreen(SEARCHING_COMPOSITIONS.searching_2),
  searching_ai: searchingScreen(SEARCHING_COMPOSITIONS.searching_ai),
} satisfies Record<string, ComposedDefinition>;
