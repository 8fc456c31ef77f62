import { OfferCountdown } from './kit/OfferCountdown';

/**
 * The offer countdown of paywalls and checkouts as its own island; the screen puts it in the
 * kit's 'offer ends in' banner (SPEC.md §2).
 */
export default function OfferTimer() {
  return <OfferCountdown />;
}
