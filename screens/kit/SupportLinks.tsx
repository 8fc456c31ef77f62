import type { TFunction } from 'i18next';

/** Where the links lead unless a screen says otherwise (the product's own pages). */
export const SUPPORT_DEFAULTS = {
  supportEmail: 'support@geozilla.com',
  termsHref: 'https://geozilla.com/terms-of-use/',
  privacyHref: 'https://geozilla.com/privacy-policy/',
} as const;

/**
 * SPEC.md §2: support and legal links. The legal pages open in a new tab, so the funnel stays
 * where the visitor left it; the link says so to screen readers.
 */
export function SupportLinks({
  t,
  supportEmail = SUPPORT_DEFAULTS.supportEmail,
  termsHref = SUPPORT_DEFAULTS.termsHref,
  privacyHref = SUPPORT_DEFAULTS.privacyHref,
}: {
  t: TFunction;
  supportEmail?: string;
  termsHref?: string;
  privacyHref?: string;
}) {
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
