import type { TFunction } from 'i18next';
import { AppArt, PhoneArt } from '../kit/PhoneArt';

/**
 * What the visitor has just bought: the app's family map and family list, drawn inline
 * (screens/kit/PhoneArt.tsx) in the theme's colours, with no request of its own.
 */
export function AppScreens({ t }: { t: TFunction }) {
  return (
    <AppArt label={t('after.success.app_screens_alt')}>
      <PhoneArt x={26} y={8} screen="map" />
      <PhoneArt x={166} y={18} screen="list" />
    </AppArt>
  );
}
