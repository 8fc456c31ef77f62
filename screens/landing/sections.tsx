import type { SectionKind } from '../kit/composition';
import { AppIllustration } from './AppIllustration';
import { ClaimStrip } from './ClaimStrip';
import { Faq } from './Faq';
import { FeatureSection } from './FeatureSection';
import { Guarantee } from './Guarantee';
import { HowItWorks } from './HowItWorks';
import { LandingFooter } from './LandingFooter';
import { LandingHero } from './LandingHero';
import { PhoneSection } from './PhoneSection';
import { PictureSection } from './PictureSection';
import { Reviews } from './Reviews';
import { Stats } from './Stats';
import { Story } from './Story';

import { LANDING_SECTION_SPECS, type LandingSection } from './section-specs';

/** The landing sections with what draws each (./section-specs.ts says what each is). */
export const LANDING_SECTIONS: Record<LandingSection, SectionKind> = {
  hero: {
    ...LANDING_SECTION_SPECS.hero,
    render: (props, { badge }) => (
      <LandingHero {...props} badge={badge ? props.t(badge) : undefined} />
    ),
  },
  phone_form: {
    ...LANDING_SECTION_SPECS.phone_form,
    render: (props) => <PhoneSection {...props} />,
  },
  illustration: {
    ...LANDING_SECTION_SPECS.illustration,
    render: ({ t }) => <AppIllustration t={t} />,
  },
  claims: {
    ...LANDING_SECTION_SPECS.claims,
    render: ({ t }, { ai }) => <ClaimStrip t={t} ai={ai} />,
  },
  story: { ...LANDING_SECTION_SPECS.story, render: ({ t }) => <Story t={t} /> },
  stats: { ...LANDING_SECTION_SPECS.stats, render: ({ t }) => <Stats t={t} /> },
  features: {
    ...LANDING_SECTION_SPECS.features,
    render: ({ t }) => <FeatureSection t={t} explained={false} />,
  },
  feature_grid: {
    ...LANDING_SECTION_SPECS.feature_grid,
    render: ({ t }) => <FeatureSection t={t} explained />,
  },
  how_it_works: {
    ...LANDING_SECTION_SPECS.how_it_works,
    render: ({ t }, { ai }) => <HowItWorks t={t} ai={ai} />,
  },
  reviews: {
    ...LANDING_SECTION_SPECS.reviews,
    render: ({ t, language, rating }, { reviews }) => (
      <Reviews t={t} mode={reviews ?? 'slide'} language={language} rating={rating} />
    ),
  },
  faq: { ...LANDING_SECTION_SPECS.faq, render: ({ t }) => <Faq t={t} /> },
  guarantee: { ...LANDING_SECTION_SPECS.guarantee, render: ({ t }) => <Guarantee t={t} /> },
  picture: { ...LANDING_SECTION_SPECS.picture, render: (props) => <PictureSection {...props} /> },
  footer: {
    ...LANDING_SECTION_SPECS.footer,
    render: ({ t, brand, theme }) => <LandingFooter t={t} brand={brand} theme={theme} />,
  },
};
