import type { TFunction } from 'i18next';
import { AppArt, PhoneArt } from '../kit/PhoneArt';

/**
 * The app on a phone: the family map with everyone's pin, and the moment a number is located.
 * Drawn inline (screens/kit/PhoneArt.tsx), so it paints with the page's HTML, costs no request
 * and is no candidate for the largest paint; its own block, so a wider layout can place it.
 */
export function AppIllustration({ t }: { t: TFunction }) {
  return (
    <AppArt label={t('landing.illustration.alt')}>
      <PhoneArt x={96} y={12} screen="map" />
      <g transform="translate(190 160)">
        <rect className="art__card" width="112" height="42" rx="12" />
        <circle className="art__brand" cx="21" cy="21" r="11" />
        <path className="art__check" d="m16 21.5 3.5 3.5 6.5-7" />
        <rect className="art__line" x="40" y="13" width="58" height="6" rx="3" />
        <rect className="art__line art__line--soft" x="40" y="24" width="40" height="5" rx="2.5" />
      </g>
    </AppArt>
  );
}
