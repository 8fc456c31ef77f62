import type { TFunction } from 'i18next';
import { PhoneArt } from '../kit/PhoneArt';

/**
 * What the visitor has just bought: the app's family map and family list, drawn inline
 * (screens/kit/PhoneArt.tsx) in the theme's colours, with no request of its own.
 */
export function AppScreens({ t }: { t: TFunction }) {
  return (
    <figure className="app-art app-art--screens">
      <svg
        className="art"
        viewBox="0 0 320 250"
        width="320"
        height="250"
        role="img"
        aria-label={t('after.success.app_screens_alt')}
      >
        <circle className="art__halo" cx="160" cy="128" r="116" />
        <PhoneArt x={26} y={8} screen="map" />
        <PhoneArt x={166} y={18} screen="list" />
      </svg>
    </figure>
  );
}
