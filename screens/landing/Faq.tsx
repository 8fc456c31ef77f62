import type { TFunction } from 'i18next';

const QUESTIONS = ['consent', 'phones', 'refund'] as const;

/** Questions and answers that open without script (<details>), for the long-form landings. */
export function Faq({ t }: { t: TFunction }) {
  return (
    <section className="landing-section" aria-labelledby="faq-title">
      <h2 id="faq-title" className="landing-section__title">
        {t('landing.faq.title')}
      </h2>
      {QUESTIONS.map((question) => (
        <details key={question} className="faq__item">
          <summary className="faq__question">{t(`landing.faq.${question}_q`)}</summary>
          <p className="faq__answer">{t(`landing.faq.${question}_a`)}</p>
        </details>
      ))}
    </section>
  );
}
