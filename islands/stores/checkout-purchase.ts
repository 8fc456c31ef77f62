import type { ErrorTexts } from '../../shared/api/error-text';
import { currentScreenUrl } from '../boot';
import { minorUnits } from '../payments/providers';
import type { PurchaseOutcome, PurchaseRequest } from '../payments/purchase-types';
import { type MountedCardFields, mountedCardFields } from './card-form';
import { $checkout } from './checkout';
import { type PaymentPage, pay } from './payment';
import { paymentStoreDeps } from './payment-deps';
import { $plans } from './plans';
import { purchaseRequestFor } from './purchase-request';
import { renewalConsentToSend } from './renewal-consent';
import { $signup } from './signup';

/** Where each outcome of a checkout's payment leads, as the screen's props give it. */
export type CheckoutPage = Omit<PaymentPage, 'here' | 'texts'>;

/**
 * The page a payment starts from: the props' destinations, this screen, the error texts. A
 * checkout's purchase is confirmed in the receipt dialog before the flow goes on.
 */
export function payingPage(page: CheckoutPage, errorTexts: Partial<ErrorTexts>): PaymentPage {
  return { ...page, here: currentScreenUrl(), texts: errorTexts, confirm: true };
}

/** The plan chosen above (PlanChoice keeps it in $plans), paid with `method`. */
function chosenPlanPurchase(
  fields: MountedCardFields,
  method: PurchaseRequest['method'],
): PurchaseRequest {
  const plans = $plans.get();
  const signup = $signup.get();
  return purchaseRequestFor({
    planId: plans.plan,
    details: plans.planDetails,
    choice: fields.choice,
    visitor: { email: signup.email, uuid: signup.uuid },
    method,
    renewalConsent: renewalConsentToSend(),
  });
}

/**
 * Pays with a nonce a wallet sheet or PayPal's window handed over (SPEC.md §4 Payment step 2: "a
 * supplied nonce is used"), on the route of the visitor's provider. Resolves true only when the
 * purchase succeeded, so Stripe's sheet closes with success or failure accordingly (unless it
 * was closed already, before a 3-D Secure challenge).
 */
export async function payWithNonce(
  nonce: string,
  fields: MountedCardFields,
  page: PaymentPage,
): Promise<boolean> {
  const request = chosenPlanPurchase(fields, { kind: 'nonce', nonce });
  const deps = paymentStoreDeps(fields.provider);
  // pay() acts on the outcome itself (next page, declined page, error); the sheet only needs to
  // know whether the last answer, after any 'confirming' rechecks, was a success.
  let succeeded = false;
  const remember = <T extends PurchaseOutcome | null>(outcome: T): T => {
    succeeded = outcome?.kind === 'succeeded';
    return outcome;
  };
  await pay(request, page, {
    ...deps,
    purchase: async (sent) => remember(await deps.purchase(sent)),
    resumePurchase: async () => remember(await deps.resumePurchase()),
  });
  return succeeded;
}

/**
 * A press of Pay with the card chosen: one purchase of the chosen plan with the card in the
 * provider's fields and the name typed beside them. Nothing without mounted fields.
 */
export function payByCard(page: PaymentPage): void {
  const fields = mountedCardFields();
  if (!fields) return;
  const request = chosenPlanPurchase(fields, {
    kind: 'card-fields',
    cardholderName: $checkout.get().cardholderName.trim(),
  });
  void pay(request, page, paymentStoreDeps(fields.provider));
}

/** The price the first charge takes and its currency, from the plan PlanChoice kept. */
export function chargedToday(details: Record<string, unknown> | null) {
  const price = typeof details?.periodPrice === 'string' ? details.periodPrice : '';
  const currency = typeof details?.currency === 'string' ? details.currency : '';
  const amount = minorUnits(price, currency);
  return amount === null || !currency ? null : { price, amount, currency };
}
