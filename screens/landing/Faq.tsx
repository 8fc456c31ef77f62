import type { TFunction } from 'i18next';
import { LandingSection } from './LandingSection';

const QUESTIONS = ['consent', 'phones', 'refund'] as const;

/** Questions and answers that open without script (<details>), for the long-form landings. */
export function Faq({ t }: { t: TFunction }) {
  return (
    <LandingSection name="faq" title={t('landing.faq.title')}>
      {QUESTIONS.map((question) => (
        <details key={question} className="faq__item">
          <summary className="faq__question">{t(`landing.faq.${question}_q`)}</summary>
          <p className="faq__answer">{t(`landing.faq.${question}_a`)}</p>
        </details>
      ))}
    </LandingSection>
  );
}
