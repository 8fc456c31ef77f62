import type { TFunction } from 'i18next';
import { OfferBanner } from '../kit/OfferBanner';
import { Island } from '../layout/Island';

/** SPEC.md §2, §4: the 'offer ends in' banner with the 5-minute countdown running in it. */
export function OfferTimerBanner({ t }: { t: TFunction }) {
  return (
    <OfferBanner t={t}>
      <Island name="OfferTimer" props={{}} />
    </OfferBanner>
  );
}
