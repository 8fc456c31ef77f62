import type { TFunction } from 'i18next';

/** The problem-then-answer text of the first long-form landing. */
export function Story({ t }: { t: TFunction }) {
  return (
    <section className="story" aria-labelledby="story-title">
      <h2 id="story-title" className="landing-section__title">
        {t('landing.story.problem_title')}
      </h2>
      <p>{t('landing.story.problem_text')}</p>
      <h2 className="landing-section__title">{t('landing.story.solution_title')}</h2>
      <p>{t('landing.story.solution_text')}</p>
    </section>
  );
}
