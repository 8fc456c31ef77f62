import type { ScreenProps } from '../types';
import { AppIllustration } from './AppIllustration';
import { ClaimStrip } from './ClaimStrip';
import { Faq } from './Faq';
import { FeatureList } from './FeatureList';
import { Guarantee } from './Guarantee';
import { LandingFooter } from './LandingFooter';
import { LandingHero } from './LandingHero';
import { PhoneSection } from './PhoneSection';
import { Reviews } from './Reviews';
import { Story } from './Story';

/**
 * one_pager_l1, long form A: a story to read — the worry, the answer, what you get, every
 * review listed (static, no script), questions — then the promise.
 */
export function OnePagerL1(props: ScreenProps) {
  const { t } = props;
  return (
    <section className="screen landing landing--story" aria-labelledby="screen-title">
      <LandingHero {...props} />
      <PhoneSection {...props} />
      <AppIllustration t={t} />
      <Story t={t} />
      <FeatureList t={t} />
      <ClaimStrip t={t} />
      <Reviews t={t} mode="static" />
      <Faq t={t} />
      <Guarantee t={t} />
      <LandingFooter t={t} />
    </section>
  );
}
