import type { ChargeReceipt } from '../../shared/api/contract';
import { minorDigits } from '../../shared/minor-units';
import { cataloguePriceOf } from '../payments/purchase-tracking';
import type { PurchaseOutcome, PurchaseRequest } from '../payments/purchase-types';
import { $receipts, type Receipt } from './receipt';
import { $signup } from './signup';

/**
 * When the visitor agreed to the renewal, to the day the receipt shows. The worker stamped the
 * consent with its clock as it asked for the charge (worker/checkout/offer.ts)
 * and forwarded it to the product API, but does not send that stamp back; its receipt's
 * `charged_at` is the same worker's clock moments later, when the charge's answer came, so it
 * names the same day (but for a charge asked before midnight and answered after it). Without the
 * worker's receipt, the browser's clock as the success arrives.
 */
function agreedAt(receipt: ChargeReceipt | null | undefined): string {
  return receipt?.charged_at ?? new Date().toISOString();
}

/**
 * Keeps the receipt of a purchase that succeeded: the main purchase's (a new one replaces the
 * last), or one more upsell's (once per subscription, however often its success is read).
 * The amounts and the renewal are the worker's receipt of the charge. A worker that gave none
 * (a plan it does not know) leaves the amount the answer said, else the plan's first charge the
 * page sent as `user_data` (SPEC.md §3), and no renewal: the page never dates one itself.
 */
export function keepReceipt(
  outcome: Extract<PurchaseOutcome, { kind: 'succeeded' }>,
  plan: Pick<PurchaseRequest, 'planId' | 'userData' | 'renewalConsent'>,
  role: 'main' | 'added',
): void {
  const { receipt } = outcome;
  const receipts = $receipts.get();
  const catalogue = cataloguePriceOf(plan.userData);
  const currency = receipt?.currency ?? outcome.currency ?? catalogue.currency;
  const kept: Receipt = {
    planId: receipt?.plan_id ?? plan.planId,
    subscriptionId: outcome.subscriptionId,
    amount:
      receipt?.amount ??
      Math.round(
        (outcome.priceWithDiscount ?? catalogue.price) * 10 ** (minorDigits(currency) ?? 2),
      ),
    currency,
    renewsAt: receipt?.renews_at ?? null,
    renewalAmount: receipt?.renewal_amount ?? null,
    email: $signup.get().email,
    // An upsell whose answer names no method was charged to the main purchase's.
    paidWith: outcome.paidWith ?? (role === 'added' ? receipts.main?.paidWith : null) ?? null,
    renewalAgreedAt: plan.renewalConsent ? agreedAt(receipt) : null,
    manageUrl: receipt?.manage_url ?? null,
  };
  if (role === 'main') {
    $receipts.set({ main: kept, added: [] });
  } else if (!receipts.added.some((added) => added.subscriptionId === kept.subscriptionId)) {
    $receipts.set({ ...receipts, added: [...receipts.added, kept] });
  }
}
