import type { TFunction } from 'i18next';
import { LandingSection } from './LandingSection';

/** The problem-then-answer text of the first long-form landing. */
export function Story({ t }: { t: TFunction }) {
  return (
    <LandingSection name="story" title={t('landing.story.problem_title')} className="story">
      <p>{t('landing.story.problem_text')}</p>
      <h2 className="landing-section__title">{t('landing.story.solution_title')}</h2>
      <p>{t('landing.story.solution_text')}</p>
    </LandingSection>
  );
}
