import type { ComposedDefinition, Composition, SectionSpec } from '../kit/arrangement';

/**
 * The sections a landing may show, in the kit's words: the hero (the screen's one h1), the phone
 * form (the step's reason to be) and the support links (SPEC.md §2: every landing closes with
 * them) are required; the rest a marketer may reorder, hide, or add where a landing lacks them.
 * Copy limits keep a section readable in a 320 px column.
 */
export const LANDING_SECTION_SPECS = {
  hero: {
    copy: ['screens.{screen}.title', 'screens.{screen}.lead', 'landing.ai.badge'],
    maxChars: 160,
    required: true,
  },
  phone_form: {
    copy: ['landing.phone.', 'landing.consent', 'kit.trust.'],
    maxChars: 160,
    required: true,
  },
  illustration: {
    copy: ['landing.illustration.'],
    maxChars: 160,
  },
  claims: {
    copy: ['landing.claims.'],
    maxChars: 60,
  },
  story: {
    copy: ['landing.story.'],
    maxChars: 400,
  },
  stats: {
    copy: ['landing.stats.'],
    maxChars: 60,
  },
  features: {
    copy: ['landing.features.'],
    maxChars: 200,
  },
  feature_grid: {
    copy: ['landing.features.'],
    maxChars: 200,
  },
  how_it_works: {
    copy: [
      'landing.how.',
      'landing.ai.title',
      'landing.ai.signals',
      'landing.ai.narrow',
      'landing.ai.pin',
    ],
    maxChars: 160,
  },
  reviews: {
    copy: ['landing.reviews.'],
    maxChars: 400,
    options: { reviews: 'slide' },
  },
  faq: {
    copy: ['landing.faq.'],
    maxChars: 400,
  },
  guarantee: {
    copy: ['landing.guarantee.'],
    maxChars: 300,
  },
  /**
   * A picture from the library, which the content names with its alt text per language
   * (shared/config/content.ts `picture`); no landing in code shows one.
   */
  picture: {
    copy: [],
    maxChars: 0,
  },
  footer: {
    copy: ['kit.support.'],
    maxChars: 60,
    required: true,
  },
} satisfies Record<string, SectionSpec>;

export type LandingSection = keyof typeof LANDING_SECTION_SPECS;

/**
 * On a wide window (screens/landing/styles.ts) the pitch (the heading and the phone form, with
 * whatever the variant puts between them) takes the start column and what shows the app beside
 * it the end column; the rest of the page runs across both. As runs of sections, so a
 * marketer's order keeps its meaning: only a pitch followed by an aside is laid out this way.
 */
const LANDING_GROUPS: Readonly<Partial<Record<LandingSection, string>>> = {
  hero: 'landing__pitch',
  stats: 'landing__pitch',
  phone_form: 'landing__pitch',
  illustration: 'landing__aside',
  claims: 'landing__aside',
  story: 'landing__aside',
  features: 'landing__aside',
  feature_grid: 'landing__aside',
  how_it_works: 'landing__aside',
  picture: 'landing__aside',
};

const landing = (
  variant: string,
  sections: Composition<LandingSection>['sections'],
  panelClass?: string,
): Composition<LandingSection> => ({
  className: `screen landing landing--${variant}`,
  // The AI panel holds the illustration with the pitch: the two stay one piece.
  groups: panelClass ? { ...LANDING_GROUPS, illustration: 'landing__pitch' } : LANDING_GROUPS,
  sections,
  ...(panelClass ? { panelClass } : {}),
});

/** The five landings of SPEC.md §2 as code composes them. */
export const LANDING_COMPOSITIONS = {
  /** The classic hero: pitch, phone form, claims, what you get, how it works, reviews. */
  one_pager: landing('classic', [
    { kind: 'hero' },
    { kind: 'phone_form' },
    { kind: 'illustration' },
    { kind: 'claims' },
    { kind: 'features' },
    { kind: 'how_it_works' },
    { kind: 'reviews', options: { reviews: 'slide' } },
    { kind: 'guarantee' },
    { kind: 'footer' },
  ]),
  /** "All features": the form, then every claimed feature in a grid. */
  one_pager_all: landing('all', [
    { kind: 'hero' },
    { kind: 'phone_form' },
    { kind: 'illustration' },
    { kind: 'feature_grid' },
    { kind: 'claims' },
    { kind: 'reviews', options: { reviews: 'slide' } },
    { kind: 'guarantee' },
    { kind: 'footer' },
  ]),
  /** The AI framing (SPEC.md §1 AI-powered location): badge, AI panel, AI steps. */
  one_pager_ai: landing(
    'ai',
    [
      { kind: 'hero', options: { badge: 'landing.ai.badge' }, panel: true },
      { kind: 'phone_form', panel: true },
      { kind: 'illustration', panel: true },
      { kind: 'claims', options: { ai: true } },
      { kind: 'how_it_works', options: { ai: true } },
      { kind: 'features' },
      { kind: 'reviews', options: { reviews: 'slide' } },
      { kind: 'guarantee' },
      { kind: 'footer' },
    ],
    'landing-ai-panel',
  ),
  /**
   * Long form A, a story to read: the worry, the answer, what you get, every review listed
   * (static, no script), questions, then the promise.
   */
  one_pager_l1: landing('story', [
    { kind: 'hero' },
    { kind: 'phone_form' },
    { kind: 'illustration' },
    { kind: 'story' },
    { kind: 'features' },
    { kind: 'claims' },
    { kind: 'reviews', options: { reviews: 'static' } },
    { kind: 'faq' },
    { kind: 'guarantee' },
    { kind: 'footer' },
  ]),
  /**
   * Long form B, proof first: big numbers under the heading, then the form, how it works, the
   * features, reviews sliding and questions.
   */
  one_pager_l2: landing('proof', [
    { kind: 'hero' },
    { kind: 'stats' },
    { kind: 'phone_form' },
    { kind: 'illustration' },
    { kind: 'how_it_works' },
    { kind: 'feature_grid' },
    { kind: 'reviews', options: { reviews: 'slide' } },
    { kind: 'faq' },
    { kind: 'guarantee' },
    { kind: 'footer' },
  ]),
} satisfies Record<string, Composition<LandingSection>>;

type LandingId = keyof typeof LANDING_COMPOSITIONS;

const composedLanding = (id: LandingId): ComposedDefinition => ({
  slot: 'landing',
  composition: LANDING_COMPOSITIONS[id],
  catalogue: LANDING_SECTION_SPECS,
});

/** Each landing's sections: its composition, and the landing slot's catalogue of sections. */
export const LANDING_COMPOSED: Record<LandingId, ComposedDefinition> = {
  one_pager: composedLanding('one_pager'),
  one_pager_all: composedLanding('one_pager_all'),
  one_pager_ai: composedLanding('one_pager_ai'),
  one_pager_l1: composedLanding('one_pager_l1'),
  one_pager_l2: composedLanding('one_pager_l2'),
};
