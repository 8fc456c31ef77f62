import type { TFunction } from 'i18next';
import { StepList } from '../kit/StepList';
import { LandingSection } from './LandingSection';

/** The three steps from number to location, consent in the middle (SPEC.md §1). */
export function HowItWorks({ t, ai = false }: { t: TFunction; ai?: boolean }) {
  const steps = ai
    ? [t('landing.ai.signals'), t('landing.ai.narrow'), t('landing.ai.pin')]
    : [t('landing.how.enter'), t('landing.how.consent'), t('landing.how.see')];
  return (
    <LandingSection name="how" title={t(ai ? 'landing.ai.title' : 'landing.how.title')}>
      <StepList steps={steps} />
    </LandingSection>
  );
}
