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

/** one_pager_ai: the AI framing (SPEC.md §1 AI-powered location) — badge, AI panel, AI steps. */
export function OnePagerAi(props: ScreenProps) {
  const { t } = props;
  return (
    <section className="screen landing landing--ai" aria-labelledby="screen-title">
      <div className="landing-ai-panel">
        <LandingHero {...props} badge={t('landing.ai.badge')} />
        <PhoneSection {...props} />
        <AppIllustration t={t} />
      </div>
      <ClaimStrip t={t} ai />
      <HowItWorks t={t} ai />
      <FeatureList t={t} />
      <Reviews t={t} mode="slide" />
      <Guarantee t={t} />
      <LandingFooter t={t} />
    </section>
  );
}
