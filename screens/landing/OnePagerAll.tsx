import type { ScreenProps } from '../types';
import { AppIllustration } from './AppIllustration';
import { ClaimStrip } from './ClaimStrip';
import { FeatureGrid } from './FeatureGrid';
import { Guarantee } from './Guarantee';
import { LandingFooter } from './LandingFooter';
import { LandingHero } from './LandingHero';
import { PhoneSection } from './PhoneSection';
import { Reviews } from './Reviews';

/** one_pager_all: "all features" — the form, then every claimed feature in a grid. */
export function OnePagerAll(props: ScreenProps) {
  const { t } = props;
  return (
    <section className="screen landing landing--all" aria-labelledby="screen-title">
      <LandingHero {...props} />
      <PhoneSection {...props} />
      <AppIllustration t={t} />
      <FeatureGrid t={t} />
      <ClaimStrip t={t} />
      <Reviews t={t} mode="slide" />
      <Guarantee t={t} />
      <LandingFooter t={t} />
    </section>
  );
}
