import type { TFunction } from 'i18next';
import { StepList } from '../kit/StepList';

/** The three steps from number to location, consent in the middle (SPEC.md §1). */
export function HowItWorks({ t, ai = false }: { t: TFunction; ai?: boolean }) {
  const steps = ai
    ? [t('landing.ai.signals'), t('landing.ai.narrow'), t('landing.ai.pin')]
    : [t('landing.how.enter'), t('landing.how.consent'), t('landing.how.see')];
  return (
    <section className="landing-section" aria-labelledby="how-title">
      <h2 id="how-title" className="landing-section__title">
        {t(ai ? 'landing.ai.title' : 'landing.how.title')}
      </h2>
      <StepList steps={steps} />
    </section>
  );
}
