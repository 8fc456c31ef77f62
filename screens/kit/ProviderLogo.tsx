import type { TFunction } from 'i18next';

export type PaymentProvider = 'stripe' | 'braintree' | 'paypal' | 'cards';

/**
 * The logo files (public/img/kit), for a checkout screen's `images` list: SPEC.md §2 has
 * checkout screens fetch their card-brand and wallet images ahead of time.
 */
export const PROVIDER_LOGOS: Record<PaymentProvider, { src: string; width: number }> = {
  stripe: { src: '/img/kit/stripe.svg', width: 64 },
  braintree: { src: '/img/kit/braintree.svg', width: 88 },
  paypal: { src: '/img/kit/paypal.svg', width: 72 },
  cards: { src: '/img/kit/cards.svg', width: 92 },
};

const LOGO_HEIGHT = 28;

/** SPEC.md §2: a payment provider logo (Stripe, Braintree, PayPal, or Visa and Mastercard). */
export function ProviderLogo({ t, provider }: { t: TFunction; provider: PaymentProvider }) {
  const { src, width } = PROVIDER_LOGOS[provider];
  return (
    <img
      className="provider-logo"
      src={src}
      width={width}
      height={LOGO_HEIGHT}
      alt={t(`kit.provider.${provider}`)}
      loading="lazy"
      decoding="async"
    />
  );
}
