import type { TFunction } from 'i18next';
import { METHOD_SLOT, type UpsellPurchaseProps } from '../../islands/UpsellPurchase';
import type { ScreenProps } from '../types';
import { cardEntryCopy } from './card-entry-copy';

/** What one offer takes now, and how it renews ('$6.99 every month'); no renewal if one-time. */
export interface UpsellCharge {
  amount: string;
  renewal: string | null;
}

/**
 * The upsell's 'charged now' line per offer (islands/UpsellPurchase.tsx): each offer's first
 * charge and what it renews at, formatted on the server, and the slot the browser fills with the
 * card or wallet the main purchase was paid with. Its button names the same amount after the
 * screen's call to action ('Add to my plan for $5.59'), as the checkout's Pay does.
 */
export function upsellChargeCopy(
  t: TFunction,
  cta: string,
  offers: Record<string, UpsellCharge>,
): Pick<UpsellPurchaseProps['copy'], 'buy' | 'buyFor' | 'chargeNow' | 'onFile'> {
  return {
    buy: cta,
    buyFor: Object.fromEntries(
      Object.entries(offers).map(([planId, { amount }]) => [
        planId,
        amount === '' ? cta : t('plans.upsell_charge.buy', { cta, amount }),
      ]),
    ),
    chargeNow: Object.fromEntries(
      Object.entries(offers).map(([planId, { amount, renewal }]) => [
        planId,
        renewal === null
          ? t('plans.upsell_charge.now', { amount, method: METHOD_SLOT })
          : t('plans.upsell_charge.now_then', { amount, method: METHOD_SLOT, renewal }),
      ]),
    ),
    onFile: t('plans.upsell_charge.on_file'),
  };
}

/**
 * The upsell's way round a provider that keeps failing (docs/payments.md, "A visitor already
 * paying when the provider fails"): the offer of the other provider's form, and once the visitor
 * took it (`cardAgain`, the page's query), that form's words, with the card to be typed named in
 * the charge line. Only such a page carries the card form's words.
 */
export function upsellCardAgainProps(
  props: Pick<ScreenProps, 't' | 'cardAgain' | 'language'>,
): Pick<UpsellPurchaseProps, 'otherProvider' | 'cardAgain'> {
  const { t } = props;
  return {
    otherProvider: t('after.decline_advice.actions.other_provider'),
    ...(props.cardAgain
      ? {
          cardAgain: {
            card: cardEntryCopy(t),
            method: t('plans.upsell_charge.typed_again'),
            language: props.language,
          },
        }
      : {}),
  };
}
