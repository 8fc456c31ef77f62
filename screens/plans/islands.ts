import OfferTimer from '../../islands/OfferTimer';
import PaymentMethodChoice from '../../islands/PaymentMethodChoice';
import PlanChoice from '../../islands/PlanChoice';

/** Islands of the plans screens (see screens/islands.ts). */
export const PLANS_ISLANDS = { OfferTimer, PaymentMethodChoice, PlanChoice } as const;
