import {
  PROVIDER_UNAVAILABLE_PATH,
  type ProviderUnavailableReport,
} from '../../shared/api/payment-provider';
import { apiRequest } from '../../shared/api/request';
import type { ProviderId } from './provider';

/**
 * The page's word to the worker about the card provider (docs/payments.md, "A failing provider
 * routed around"): that its script did not load. The worker decides what it counts.
 */

/**
 * Tells the worker the provider's script or fields did not load, for its health. Never throws:
 * the visitor already sees the card form unavailable, and a lost report changes nothing for them.
 */
export async function reportProviderUnavailable(provider: ProviderId): Promise<void> {
  if (provider === 'test') return;
  try {
    await apiRequest(PROVIDER_UNAVAILABLE_PATH, {
      body: { provider } satisfies ProviderUnavailableReport,
    });
  } catch {
    // Counted or not, the checkout goes on the same.
  }
}
