import type { PaymentImage } from '../../islands/kit/payment-methods';

/**
 * The card-brand and wallet images of the checkout screens. Their alt texts are the
 * brands' own names, which no language translates.
 */
const image = (name: string, alt: string): PaymentImage => ({
  src: `/img/plans/${name}.svg`,
  alt,
  width: 48,
  height: 32,
});

export const CARD_BRAND_IMAGES = [
  image('visa', 'Visa'),
  image('mastercard', 'Mastercard'),
  image('amex', 'American Express'),
] as const;

export const APPLE_PAY_IMAGE = image('apple-pay', 'Apple Pay');
export const GOOGLE_PAY_IMAGE = image('google-pay', 'Google Pay');
export const PAYPAL_IMAGE = image('paypal', 'PayPal');

/**
 * SPEC.md §2: checkout screens preload card-brand, wallet and guarantee images. The guarantee's
 * seal is drawn in the page (GuaranteeBadge.tsx), so it has no file to preload.
 */
export const CHECKOUT_IMAGES: readonly string[] = [
  ...CARD_BRAND_IMAGES,
  APPLE_PAY_IMAGE,
  GOOGLE_PAY_IMAGE,
  PAYPAL_IMAGE,
].map((entry) => entry.src);
