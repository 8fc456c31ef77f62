import type { TFunction } from 'i18next';

/** SPEC.md §2: the 'or' divider between sign-up with Google and with email. */
export function Divider({ t }: { t: TFunction }) {
  return <p className="divider">{t('kit.or')}</p>;
}
