import type { ScreenProps } from '../types';
import { AppIllustration } from './AppIllustration';
import { Faq } from './Faq';
import { FeatureGrid } from './FeatureGrid';
import { Guarantee } from './Guarantee';
import { HowItWorks } from './HowItWorks';
import { LandingFooter } from './LandingFooter';
import { LandingHero } from './LandingHero';
import { PhoneSection } from './PhoneSection';
import { Reviews } from './Reviews';
import { Stats } from './Stats';

/**
 * one_pager_l2, long form B: proof first — big numbers under the heading, then the form, how it
 * works, the features, reviews sliding and questions.
 */
export function OnePagerL2(props: ScreenProps) {
  const { t } = props;
  return (
    <section className="screen landing landing--proof" aria-labelledby="screen-title">
      <LandingHero {...props} />
      <Stats t={t} />
      <PhoneSection {...props} />
      <AppIllustration t={t} />
      <HowItWorks t={t} />
      <FeatureGrid t={t} />
      <Reviews t={t} mode="slide" />
      <Faq t={t} />
      <Guarantee t={t} />
      <LandingFooter t={t} />
    </section>
  );
}
