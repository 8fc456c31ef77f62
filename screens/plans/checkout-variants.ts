import type { PaymentMethodId } from '../../islands/kit/payment-methods';
import { type PaymentProvider, PROVIDER_LOGOS } from '../kit/ProviderLogo';
import { CHECKOUT_IMAGES } from './payment-images';

export type CheckoutScreenId =
  | 'checkout_v3_tr'
  | 'checkout_h3_pp'
  | 'checkout_v3_pp'
  | 'checkout_h3_pp_braintree';

export interface CheckoutVariant {
  /** v3: payment methods as stacked rows; h3: as tabs side by side. */
  layout: 'vertical' | 'horizontal';
  /** The methods in order; the first is selected. */
  methods: readonly [PaymentMethodId, ...PaymentMethodId[]];
  /** tr: the trial is the headline; pp: paying in one click (or with PayPal) is. */
  emphasis: 'trial' | 'one_click' | 'paypal';
  /** Who takes the card: the card provider, or the alternate one the braintree id names. */
  provider: 'stripe' | 'braintree';
}

/**
 * What tells the checkout variants of SPEC.md §2 apart (their plans are in
 * shared/plans/screen-offers.ts, which the worker checks charges against), as their names say:
 * v3 vertical or h3 horizontal method tabs, tr trial emphasis, pp one-click emphasis. The
 * braintree one takes cards through the alternate provider and offers PayPal, which that
 * provider carries.
 */
export const CHECKOUT_VARIANTS: Record<CheckoutScreenId, CheckoutVariant> = {
  checkout_v3_tr: {
    layout: 'vertical',
    methods: ['card', 'wallet'],
    emphasis: 'trial',
    provider: 'stripe',
  },
  checkout_h3_pp: {
    layout: 'horizontal',
    methods: ['wallet', 'card'],
    emphasis: 'one_click',
    provider: 'stripe',
  },
  checkout_v3_pp: {
    layout: 'vertical',
    methods: ['wallet', 'card'],
    emphasis: 'one_click',
    provider: 'stripe',
  },
  checkout_h3_pp_braintree: {
    layout: 'horizontal',
    methods: ['paypal', 'card'],
    emphasis: 'paypal',
    provider: 'braintree',
  },
};

/**
 * The variant as this deployment offers it. PayPal is off unless the deployment turns it on
 * (SPEC.md §9: the pay-pal flag is false): without it, its method is left out, so the braintree
 * checkout opens on the card, and a PayPal headline gives way to the trial's.
 */
export function offeredVariant(variant: CheckoutVariant, paypal: boolean): CheckoutVariant {
  if (paypal || !variant.methods.includes('paypal')) return variant;
  const [first = 'card', ...rest] = variant.methods.filter((method) => method !== 'paypal');
  return {
    ...variant,
    methods: [first, ...rest],
    emphasis: variant.emphasis === 'paypal' ? 'trial' : variant.emphasis,
  };
}

/** The logos of who takes the payment: the card provider, and PayPal where it is offered. */
export function checkoutProviders(
  methods: readonly PaymentMethodId[],
  provider: CheckoutVariant['provider'],
): PaymentProvider[] {
  return methods.includes('paypal') ? [provider, 'paypal'] : [provider];
}

/**
 * SPEC.md §2: a checkout's images, fetched ahead on the screen before it: card brands, wallets,
 * the guarantee badge and its providers' logos.
 */
export function checkoutImages(variant: CheckoutVariant): string[] {
  const providers = checkoutProviders(variant.methods, variant.provider);
  return [...CHECKOUT_IMAGES, ...providers.map((p) => PROVIDER_LOGOS[p].src)];
}
