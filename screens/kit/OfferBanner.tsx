import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

/**
 * SPEC.md §2: the 'offer ends' banner. The countdown itself (SPEC.md §4, 300 s) is the plans
 * screens' island, passed as children; it sits in `.offer-banner__time`.
 */
export function OfferBanner({ t, children }: { t: TFunction; children: ReactNode }) {
  return (
    <div className="offer-banner">
      <span className="offer-banner__label">{t('kit.offer.ends_in')}</span>
      <div className="offer-banner__time">{children}</div>
    </div>
  );
}
