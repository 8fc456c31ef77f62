import type { PaidWith } from './purchase-types';

/**
 * How processors spell card brands and wallets (Stripe's `card.brand`, its wallet types, the
 * test gateway's brands) and how a visitor reads them. Brand names are not translated.
 */
const NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  american_express: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
  paypal: 'PayPal',
  link: 'Link',
};

/** A name we have no spelling for: its words, capitalised ('cartes_bancaires' → 'Cartes Bancaires'). */
function nameOf(id: string): string {
  return (
    NAMES[id] ??
    id
      .split('_')
      .filter(Boolean)
      .map((word) => word[0]?.toUpperCase() + word.slice(1))
      .join(' ')
  );
}

/** 'Visa •••• 4242' for a card, 'Apple Pay' for a wallet. */
export function paidWithLabel(paidWith: PaidWith): string {
  return paidWith.kind === 'wallet'
    ? nameOf(paidWith.wallet)
    : `${nameOf(paidWith.brand)} •••• ${paidWith.last4}`;
}
