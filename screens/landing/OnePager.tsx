import type { ScreenProps } from '../types';
import { AppIllustration } from './AppIllustration';
import { ClaimStrip } from './ClaimStrip';
import { FeatureList } from './FeatureList';
import { Guarantee } from './Guarantee';
import { HowItWorks } from './HowItWorks';
import { LandingFooter } from './LandingFooter';
import { LandingHero } from './LandingHero';
import { PhoneSection } from './PhoneSection';
import { Reviews } from './Reviews';

/** one_pager: the classic hero — pitch, phone form, claims, what you get, how it works, reviews. */
export function OnePager(props: ScreenProps) {
  const { t } = props;
  return (
    <section className="screen landing landing--classic" aria-labelledby="screen-title">
      <LandingHero {...props} />
      <PhoneSection {...props} />
      <AppIllustration t={t} />
      <ClaimStrip t={t} />
      <FeatureList t={t} />
      <HowItWorks t={t} />
      <Reviews t={t} mode="slide" />
      <Guarantee t={t} />
      <LandingFooter t={t} />
    </section>
  );
}
