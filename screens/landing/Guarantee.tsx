import type { TFunction } from 'i18next';
import { LandingSection } from './LandingSection';

/** SPEC.md §1, §9: the 100% money-back guarantee. */
export function Guarantee({ t }: { t: TFunction }) {
  return (
    <LandingSection
      name="guarantee"
      title={t('landing.guarantee.title')}
      className="guarantee"
      titleClassName="guarantee__title"
    >
      <p className="guarantee__text">{t('landing.guarantee.text')}</p>
    </LandingSection>
  );
}
