import type { Composition, SectionKind } from '../kit/composition';
import { AppIllustration } from './AppIllustration';
import { ClaimStrip } from './ClaimStrip';
import { Faq } from './Faq';
import { FeatureGrid } from './FeatureGrid';
import { FeatureList } from './FeatureList';
import { Guarantee } from './Guarantee';
import { HowItWorks } from './HowItWorks';
import { LandingFooter } from './LandingFooter';
import { LandingHero } from './LandingHero';
import { PhoneSection } from './PhoneSection';
import { PictureSection } from './PictureSection';
import { Reviews } from './Reviews';
import { Stats } from './Stats';
import { Story } from './Story';

/**
 * The sections a landing may show, in the kit's words: the hero (the screen's one h1), the phone
 * form (the step's reason to be) and the support links (SPEC.md §2: every landing closes with
 * them) are required; the rest a marketer may reorder, hide, or add where a landing lacks them.
 * Copy limits keep a section readable in a 320 px column.
 */
export const LANDING_SECTIONS = {
  hero: {
    render: (props, { badge }) => (
      <LandingHero {...props} badge={badge ? props.t(badge) : undefined} />
    ),
    copy: ['screens.{screen}.title', 'screens.{screen}.lead', 'landing.ai.badge'],
    maxChars: 160,
    required: true,
  },
  phone_form: {
    render: (props) => <PhoneSection {...props} />,
    copy: ['landing.phone.', 'landing.consent', 'kit.trust.'],
    maxChars: 160,
    required: true,
  },
  illustration: {
    render: ({ t }) => <AppIllustration t={t} />,
    copy: ['landing.illustration.'],
    maxChars: 160,
  },
  claims: {
    render: ({ t }, { ai }) => <ClaimStrip t={t} ai={ai} />,
    copy: ['landing.claims.'],
    maxChars: 60,
  },
  story: {
    render: ({ t }) => <Story t={t} />,
    copy: ['landing.story.'],
    maxChars: 400,
  },
  stats: {
    render: ({ t }) => <Stats t={t} />,
    copy: ['landing.stats.'],
    maxChars: 60,
  },
  features: {
    render: ({ t }) => <FeatureList t={t} />,
    copy: ['landing.features.'],
    maxChars: 200,
  },
  feature_grid: {
    render: ({ t }) => <FeatureGrid t={t} />,
    copy: ['landing.features.'],
    maxChars: 200,
  },
  how_it_works: {
    render: ({ t }, { ai }) => <HowItWorks t={t} ai={ai} />,
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
    render: ({ t }, { reviews }) => <Reviews t={t} mode={reviews ?? 'slide'} />,
    copy: ['landing.reviews.'],
    maxChars: 400,
    options: { reviews: 'slide' },
  },
  faq: {
    render: ({ t }) => <Faq t={t} />,
    copy: ['landing.faq.'],
    maxChars: 400,
  },
  guarantee: {
    render: ({ t }) => <Guarantee t={t} />,
    copy: ['landing.guarantee.'],
    maxChars: 300,
  },
  /**
   * A picture from the library, which the content names with its alt text per language
   * (shared/config/content.ts `picture`); no landing in code shows one.
   */
  picture: {
    render: (props) => <PictureSection {...props} />,
    copy: [],
    maxChars: 0,
  },
  footer: {
    render: ({ t }) => <LandingFooter t={t} />,
    copy: ['kit.support.'],
    maxChars: 60,
    required: true,
  },
} satisfies Record<string, SectionKind>;

export type LandingSection = keyof typeof LANDING_SECTIONS;

const landing = (
  variant: string,
  sections: Composition<LandingSection>['sections'],
  panelClass?: string,
): Composition<LandingSection> => ({
  className: `screen landing landing--${variant}`,
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
