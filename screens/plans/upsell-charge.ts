import type { TFunction } from 'i18next';
import { METHOD_SLOT, type UpsellPurchaseProps } from '../../islands/UpsellPurchase';

/**
 * The upsell's 'charged now' line per offer (islands/UpsellPurchase.tsx): each offer's first
 * charge, formatted on the server, and the slot the browser fills with the card or wallet the
 * main purchase was paid with.
 */
export function upsellChargeCopy(
  t: TFunction,
  amounts: Record<string, string>,
): Pick<UpsellPurchaseProps['copy'], 'chargeNow' | 'onFile'> {
  return {
    chargeNow: Object.fromEntries(
      Object.entries(amounts).map(([planId, amount]) => [
        planId,
        t('plans.upsell_charge.now', { amount, method: METHOD_SLOT }),
      ]),
    ),
    onFile: t('plans.upsell_charge.on_file'),
  };
}
