import type { TFunction } from 'i18next';
import { Island } from '../layout/Island';

/** SPEC.md §2: the 'number located' banner, showing the number the landing took once hydrated. */
export function LocatedBanner({ t }: { t: TFunction }) {
  return (
    <Island
      name="LocatedBanner"
      props={{ title: t('kit.located.title'), phoneLabel: t('kit.located.phone_label') }}
    />
  );
}
