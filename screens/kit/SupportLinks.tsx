import type { TFunction } from 'i18next';
import type { Brand } from '../../shared/brand';
import { contractPageHref } from '../../shared/contract-page';
import type { Theme } from '../../shared/theme';
import type { SectionSpec } from './arrangement';
import type { SectionKind } from './composition';

/**
 * SPEC.md §2: support and legal links, the page's brand's (shared/brand.ts). The legal pages
 * open in a new tab, so the funnel stays where the visitor left it; the link says so to screen
 * readers. Then the contract page's two ways in, in the page's brand (docs/payments.md, "Withdraw
 * and cancel online"): the EU's withdrawal function and Germany's cancellation button, each in
 * its statutory wording, on every page so they are always reachable without logging in.
 */
export function SupportLinks({ t, brand, theme }: { t: TFunction; brand: Brand; theme: Theme }) {
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
        <li>
          <a className="support-links__link" href={contractPageHref('withdraw', theme)}>
            {t('kit.support.withdraw')}
          </a>
        </li>
        <li>
          <a className="support-links__link" href={contractPageHref('cancel', theme)}>
            {t('kit.support.cancel_contracts')}
          </a>
        </li>
      </ul>
    </nav>
  );
}

/** The support section of any screen that places one: the links alone, the same everywhere. */
export function supportSection(spec: SectionSpec): SectionKind {
  return {
    ...spec,
    render: ({ t, brand, theme }) => <SupportLinks t={t} brand={brand} theme={theme} />,
  };
}
