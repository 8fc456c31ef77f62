import { minorDigits } from '../../shared/minor-units';
import { cataloguePriceOf } from '../payments/purchase-tracking';
import type { PurchaseOutcome } from '../payments/purchase-types';
import { $receipts, type Receipt } from './receipt';
import { $signup } from './signup';

/**
 * Keeps the receipt of a purchase that succeeded: the main purchase's (a new one replaces the
 * last), or one more upsell's (once per subscription, however often its success is read).
 * The amounts and the renewal are the worker's receipt of the charge. A worker that gave none
 * (a plan it does not know) leaves the amount the answer said, else the plan's first charge the
 * page sent as `user_data` (SPEC.md §3), and no renewal: the page never dates one itself.
 */
export function keepReceipt(
  outcome: Extract<PurchaseOutcome, { kind: 'succeeded' }>,
  plan: { planId: string; userData: Record<string, unknown> },
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
  };
  if (role === 'main') {
    $receipts.set({ main: kept, added: [] });
  } else if (!receipts.added.some((added) => added.subscriptionId === kept.subscriptionId)) {
    $receipts.set({ ...receipts, added: [...receipts.added, kept] });
  }
}
