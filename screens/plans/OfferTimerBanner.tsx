import type { TFunction } from 'i18next';
import type { OfferClock } from '../../shared/plans/offer-clock';
import { Island } from '../layout/Island';

/**
 * SPEC.md §2, §4: the 'offer ends in' banner, its countdown starting from what is left of the
 * visitor's deadline (worker/checkout/offer.ts), rendered by the server so it is right
 * without script; once the offer ended it says so. None where the route or variant turned the
 * countdown off: then the offer never ends, and nothing may say it does.
 */
export function OfferTimerBanner({ t, clock }: { t: TFunction; clock: OfferClock | undefined }) {
  if (!clock || clock.state === 'off') return null;
  return (
    <Island
      name="OfferTimer"
      props={{
        secondsLeft: clock.state === 'running' ? clock.secondsLeft : 0,
        label: t('kit.offer.ends_in'),
        endedText: t('kit.offer_deadline.ended'),
      }}
    />
  );
}
