import { chargedFirst } from '../shared/plans/anchors';
import type { Plan } from '../shared/plans/catalogue';
import { COUPONS } from '../shared/plans/coupons';
import { toMajorUnits } from '../shared/plans/money';
import type { CardBehaviour } from './test-gateway/test-cards';

type CouponCode = keyof typeof COUPONS;

/**
 * The emulator's payment gateway: decides what one subscription charge does, from the card's
 * test behaviour (portal/test-gateway/test-cards.ts, Stripe's documented test cards) and how far
 * its 3-D Secure authentication got. Pure; portal/charges.ts does the reading and writing.
 *
 * A payment method of another gateway (a Stripe or Braintree nonce the emulator cannot look
 * into) behaves as 'succeeds'.
 */

/** The decline codes the test cards produce, as Stripe names them. */
export type DeclineCode =
  | 'generic_decline'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'lost_card'
  | 'stolen_card'
  | 'processing_error'
  | 'fraudulent'
  | 'card_velocity_exceeded'
  | 'card_declined'
  | 'authentication_required';

/**
 * Where the card's 3-D Secure stands for this charge: `none` when no challenge was run yet (a
 * first charge), else the outcome of the challenge (a repeated call with the intent id, or a
 * Braintree-style verified nonce). `pending` is a challenge opened and never finished.
 */
export type Authentication = 'none' | 'pending' | 'succeeded' | 'failed';

export type ChargeDecision =
  | { kind: 'charged' }
  | { kind: 'declined'; declineCode: DeclineCode; processorResponse: string }
  | { kind: 'requires_authentication' };

/** The processor's text for each decline (SPEC.md §8: reported with the decline code). */
const PROCESSOR_RESPONSES: Readonly<Record<DeclineCode, string>> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  lost_card: 'Your card was declined.',
  stolen_card: 'Your card was declined.',
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',
  fraudulent: 'Your card was declined.',
  card_velocity_exceeded: 'Your card was declined for making repeated attempts too frequently.',
  card_declined: 'Your card was declined.',
  authentication_required:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
};

const DECLINES: Partial<Record<CardBehaviour, DeclineCode>> = {
  declines_generic: 'generic_decline',
  declines_insufficient_funds: 'insufficient_funds',
  declines_expired: 'expired_card',
  declines_incorrect_cvc: 'incorrect_cvc',
  declines_lost_card: 'lost_card',
  declines_stolen_card: 'stolen_card',
  declines_processing_error: 'processing_error',
  declines_fraudulent: 'fraudulent',
  declines_velocity_exceeded: 'card_velocity_exceeded',
};

/**
 * The same declines as Braintree's processor answers them (Braintree, "Declines": the code, a
 * space, its text), for a charge of the Braintree-style flow (a verified nonce, the direct call):
 * a product API on Braintree reports these, which the funnel must classify as well.
 */
const BRAINTREE_RESPONSES: Readonly<Record<DeclineCode, string>> = {
  generic_decline: '2046 Declined',
  insufficient_funds: '2001 Insufficient Funds',
  expired_card: '2004 Expired Card',
  incorrect_cvc: '2010 Card Issuer Declined CVV',
  lost_card: '2012 Processor Declined - Possible Lost Card',
  stolen_card: '2013 Processor Declined - Possible Stolen Card',
  processing_error: '3000 Processor Network Unavailable - Try Again',
  fraudulent: '2014 Processor Declined - Fraud Suspected',
  card_velocity_exceeded: '2002 Limit Exceeded',
  card_declined: '2000 Do Not Honor',
  authentication_required: '2099 Cardholder Authentication Required',
};

/** Whose words a decline is answered in: Stripe's (the polling flow) or Braintree's processor's. */
export type Processor = 'stripe' | 'braintree';

export function decideCharge(
  behaviour: CardBehaviour,
  authentication: Authentication,
  processor: Processor = 'stripe',
): ChargeDecision {
  const declined = (declineCode: DeclineCode): ChargeDecision => ({
    kind: 'declined',
    declineCode,
    processorResponse:
      processor === 'braintree'
        ? BRAINTREE_RESPONSES[declineCode]
        : PROCESSOR_RESPONSES[declineCode],
  });
  const decline = DECLINES[behaviour];
  if (decline) return declined(decline);
  if (behaviour === 'succeeds') return { kind: 'charged' };
  // The 3-D Secure cards: a first charge asks for the challenge; a finished one decides.
  if (authentication === 'none') return { kind: 'requires_authentication' };
  if (authentication !== 'succeeded') return declined('authentication_required');
  return behaviour === 'requires_authentication' ? { kind: 'charged' } : declined('card_declined');
}

/**
 * What the first charge of a plan takes, in its currency's units (6.99), from the portal's own
 * catalogue and never from what the client sends: the intro price when the plan has one (SPEC.md
 * §3 periodPrice), less a catalogue coupon the plan accepts, the same total the checkout's order
 * summary shows (SPEC.md §2). A code the catalogue does not know takes nothing off.
 */
export function firstChargeOf(plan: Plan, couponCode: string | null | undefined): number {
  const coupon =
    couponCode && Object.hasOwn(COUPONS, couponCode) ? COUPONS[couponCode as CouponCode] : null;
  return toMajorUnits(chargedFirst(plan, coupon), plan.currency);
}

/** The amount to verify a card for, as Braintree's verifyCard takes it: '6.99'. */
export function validationAmountOf(price: number): string {
  return price.toFixed(2);
}
