import type {
  ProviderSwitchAnswer,
  ProviderUnavailableReport,
} from '../../shared/api/payment-provider';
import {
  PROVIDER_SWITCH_PATH,
  PROVIDER_UNAVAILABLE_PATH,
} from '../../shared/api/payment-provider-paths';
import { apiRequest } from '../../shared/api/request';
import { $signup } from '../stores/signup';

/**
 * The page's two words to the worker about the card provider (docs/payments.md, "A failing
 * provider routed around"): that its script did not load, and, from 'Payment declined', that the
 * visitor takes the other provider's form the worker offered. The worker decides both; the page
 * only asks.
 */

/**
 * Tells the worker the provider's script or fields did not load, for its health (the test
 * gateway's for the provider it plays: `playedProvider`). Never throws: the visitor already sees
 * the card form unavailable, and a lost report changes nothing for them.
 */
export async function reportProviderUnavailable(provider: 'stripe' | 'braintree'): Promise<void> {
  try {
    await apiRequest(PROVIDER_UNAVAILABLE_PATH, {
      body: { provider } satisfies ProviderUnavailableReport,
    });
  } catch {
    // Counted or not, the checkout goes on the same.
  }
}

/**
 * 'Pay with another payment form': asks the worker to move the visitor's checkout to the other
 * provider, which it allows once after a decline that provider may approve. On yes, the card form
 * opens on that provider; on anything else the checkout stays on its own.
 */
export async function switchToOtherProvider(): Promise<boolean> {
  try {
    const { data } = await apiRequest<Partial<ProviderSwitchAnswer> | null>(PROVIDER_SWITCH_PATH, {
      body: {},
    });
    const provider = data?.payment_provider;
    if (provider !== 'stripe' && provider !== 'braintree') return false;
    $signup.set({ ...$signup.get(), cardProvider: provider });
    return true;
  } catch {
    return false;
  }
}
