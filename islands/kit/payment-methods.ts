/** The payment methods a checkout screen names (SPEC.md §2 checkout page content). */
export type PaymentMethodId = 'card' | 'wallet' | 'apple_pay' | 'paypal';

export interface PaymentImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

export interface PaymentMethodOption {
  id: PaymentMethodId;
  label: string;
  images: PaymentImage[];
}
