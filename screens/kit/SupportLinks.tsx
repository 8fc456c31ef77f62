import type { TFunction } from 'i18next';
import type { Brand } from '../../shared/brand';
import type { SectionSpec } from './arrangement';
import type { SectionKind } from './composition';

/**
 * SPEC.md §2: support and legal links, the page's brand's (shared/brand.ts). The legal pages
 * open in a new tab, so the funnel stays where the visitor left it; the link says so to screen
 * readers.
 */
export function SupportLinks({ t, brand }: { t: TFunction; brand: Brand }) {
  const { supportEmail } = brand;
  const { terms: termsHref, privacy: privacyHref } = brand.links;
  const newTab = <span className="visually-hidden"> {t('kit.support.new_tab')}</span>;
  return (
    <nav className="support-links" aria-label={t('kit.support.label')}>
      <ul className="support-links__list">
        <li>
          <a className="support-links__link" href={`mailto:${supportEmail}`}>
            {t('kit.support.contact')}
          </a>
        </li>
        <li>
          <a className="support-links__link" href={termsHref} target="_blank" rel="noopener">
            {t('kit.support.terms')}
            {newTab}
          </a>
        </li>
        <li>
          <a className="support-links__link" href={privacyHref} target="_blank" rel="noopener">
            {t('kit.support.privacy')}
            {newTab}
          </a>
        </li>
      </ul>
    </nav>
  );
}

/** The support section of any screen that places one: the links alone, the same everywhere. */
export function supportSection(spec: SectionSpec): SectionKind {
  return { ...spec, render: ({ t, brand }) => <SupportLinks t={t} brand={brand} /> };
}
