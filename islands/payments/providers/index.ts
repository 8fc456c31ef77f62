import { minorDigits } from '../../../shared/minor-units';
import type { CardProvider, ProviderId } from '../provider';
import type { PayPalButton, PayPalPurchase } from './braintree-paypal';
import type { TestGatewayCopy } from './test-gateway';
import type { WalletButton, WalletPurchase } from './wallets';

/** The payment fields of the signup slice this choice reads (SPEC.md §3 Signup state). */
export interface PaymentSettings {
  /** SPEC.md §4 Payment settings: the portal's gateway ('test', 'stripe', 'braintree'). */
  paymentProvider: string;
  /**
   * The card provider the worker routed this checkout to (`payment_provider`, docs/payments.md
   * "A failing provider routed around"); empty when it named none, and the gateway decides.
   */
  cardProvider?: string;
  stripe: { key: string; name: string } | null;
  btToken: string;
  threeDS: number;
}

/** Which provider takes the card and which subscription call it uses (SPEC.md §7). */
export interface ProviderChoice {
  id: ProviderId;
  /** 'direct' is the alternate provider's POST /users/me/subscriptions/{planId}. */
  route: 'polling' | 'direct';
}

/**
 * SPEC.md §2, §4: the provider the worker routed the checkout to, else the portal's gateway,
 * picks the provider, except that a checkout forcing the alternate provider
 * (checkout_h3_pp_braintree) always takes the direct route. With the test gateway the embedded
 * portal plays either role, so 'test' stays the test gateway, on Braintree's direct route when
 * routed there (its verifyCard stands in for Braintree's 3-D Secure).
 */
export function chooseProvider(
  settings: Pick<PaymentSettings, 'paymentProvider' | 'cardProvider'>,
  options: { forceDirect: boolean },
): ProviderChoice {
  const routed = settings.cardProvider || settings.paymentProvider;
  if (settings.paymentProvider === 'test') {
    const direct = options.forceDirect || routed === 'braintree';
    return { id: 'test', route: direct ? 'direct' : 'polling' };
  }
  if (options.forceDirect || routed === 'braintree') {
    return { id: 'braintree', route: 'direct' };
  }
  // SPEC.md §4: an unknown or missing gateway means the card provider.
  return { id: 'stripe', route: 'polling' };
}

/**
 * The card provider a choice pays with as the worker's health counts it: the test gateway plays
 * Stripe on the polling route and Braintree on the direct one (docs/payments.md, "A failing
 * provider routed around").
 */
export function playedProvider(choice: ProviderChoice): 'stripe' | 'braintree' {
  if (choice.id !== 'test') return choice.id;
  return choice.route === 'direct' ? 'braintree' : 'stripe';
}

/**
 * The chosen provider, its SDK loaded only now: each adapter is its own chunk, so no payment
 * script reaches a page before its checkout asks for one.
 */
export async function loadCardProvider(
  choice: ProviderChoice,
  settings: PaymentSettings,
  copy: TestGatewayCopy,
): Promise<CardProvider> {
  switch (choice.id) {
    case 'test': {
      const { createTestGatewayProvider } = await import(
        '#browser-only/islands/payments/providers/test-gateway'
      );
      return createTestGatewayProvider(copy, playedProvider(choice));
    }
    case 'stripe': {
      const { createStripeProvider } = await import(
        '#browser-only/islands/payments/providers/stripe'
      );
      return createStripeProvider({
        publishableKey: settings.stripe?.key ?? '',
        accountName: settings.stripe?.name ?? '',
      });
    }
    case 'braintree': {
      const { createBraintreeProvider } = await import(
        '#browser-only/islands/payments/providers/braintree'
      );
      return createBraintreeProvider({
        clientToken: settings.btToken,
        threeDSecure: settings.threeDS === 1,
      });
    }
  }
}

/** The one-click methods of the method picker (SPEC.md §2 "one-click payment"). */
export type OneClickMethod = 'wallet' | 'apple_pay' | 'paypal';

/**
 * Which SDK offers a one-click method with this visitor's provider, or null when none does (the
 * checkout then says so and offers the card): Apple Pay and Google Pay come from Stripe's payment
 * request and pay on Stripe's route; PayPal comes from Braintree and pays on the direct route.
 * The test gateway has neither.
 */
export function oneClickOffer(
  method: OneClickMethod,
  choice: ProviderChoice,
  settings: Pick<PaymentSettings, 'stripe' | 'btToken'>,
): 'stripe-wallet' | 'braintree-paypal' | null {
  if (method === 'paypal') {
    return choice.id === 'braintree' && settings.btToken ? 'braintree-paypal' : null;
  }
  return choice.id === 'stripe' && settings.stripe?.key ? 'stripe-wallet' : null;
}

/**
 * '29.99' USD → 2999, '980' JPY → 980: a plan's decimal price in minor units of its currency,
 * or null when it is not one (or the currency is unknown).
 */
export function minorUnits(decimal: string, currency: string): number | null {
  const digits = minorDigits(currency);
  if (digits === null) return null;
  const match = (digits === 0 ? /^(\d+)()$/ : new RegExp(`^(\\d+)\\.(\\d{${digits}})$`)).exec(
    decimal,
  );
  if (!match) return null;
  return Number(match[1]) * 10 ** digits + Number(match[2] || 0);
}

/** Stripe's wallet button, its SDK loaded only when a wallet is chosen. */
export async function loadWalletButton(purchase: WalletPurchase): Promise<WalletButton | null> {
  const { createStripeWalletButton } = await import(
    '#browser-only/islands/payments/providers/wallets'
  );
  return createStripeWalletButton(purchase);
}

/** Braintree's PayPal button, its SDK loaded only when PayPal is chosen. */
export async function loadPayPalButton(purchase: PayPalPurchase): Promise<PayPalButton> {
  const { createBraintreePayPalButton } = await import(
    '#browser-only/islands/payments/providers/braintree-paypal'
  );
  return createBraintreePayPalButton(purchase);
}
