import type { CardProvider, ProviderId } from '../provider';
import type { TestGatewayCopy } from './test-gateway';

/** The payment fields of the signup slice this choice reads (SPEC.md §3 Signup state). */
export interface PaymentSettings {
  /** SPEC.md §4 Payment settings: the portal's gateway ('test', 'stripe', 'braintree'). */
  paymentProvider: string;
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
 * SPEC.md §2, §4: the portal's gateway picks the provider, except that a checkout forcing the
 * alternate provider (checkout_h3_pp_braintree) always takes the direct route. With the test
 * gateway the embedded portal plays either role, so 'test' stays the test gateway on both routes
 * (its verifyCard stands in for Braintree's 3-D Secure).
 */
export function chooseProvider(
  settings: Pick<PaymentSettings, 'paymentProvider'>,
  options: { forceDirect: boolean },
): ProviderChoice {
  if (settings.paymentProvider === 'test') {
    return { id: 'test', route: options.forceDirect ? 'direct' : 'polling' };
  }
  if (options.forceDirect || settings.paymentProvider === 'braintree') {
    return { id: 'braintree', route: 'direct' };
  }
  // SPEC.md §4: an unknown or missing gateway means the card provider.
  return { id: 'stripe', route: 'polling' };
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
      const { createTestGatewayProvider } = await import('./test-gateway');
      return createTestGatewayProvider(copy);
    }
    case 'stripe': {
      const { createStripeProvider } = await import('./stripe');
      return createStripeProvider({
        publishableKey: settings.stripe?.key ?? '',
        accountName: settings.stripe?.name ?? '',
      });
    }
    case 'braintree': {
      const { createBraintreeProvider } = await import('./braintree');
      return createBraintreeProvider({
        clientToken: settings.btToken,
        threeDSecure: settings.threeDS === 1,
      });
    }
  }
}
