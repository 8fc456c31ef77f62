import { OfferCountdown, type OfferCountdownProps } from './kit/OfferCountdown';

/**
 * The offer countdown banner of paywalls, checkouts and the upsell as its own island
 * (SPEC.md §2, §4).
 */
export default function OfferTimer(props: OfferCountdownProps) {
  return <OfferCountdown {...props} />;
}
