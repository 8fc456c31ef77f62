import CheckoutPayment from '../../islands/CheckoutPayment';
import OfferTimer from '../../islands/OfferTimer';
import PaymentReceipt from '../../islands/PaymentReceipt';
import PlanChoice from '../../islands/PlanChoice';
import UpsellPurchase from '../../islands/UpsellPurchase';

/** Islands of the plans screens (see screens/islands.ts). */
export const PLANS_ISLANDS = {
  CheckoutPayment,
  OfferTimer,
  PaymentReceipt,
  PlanChoice,
  UpsellPurchase,
} as const;
