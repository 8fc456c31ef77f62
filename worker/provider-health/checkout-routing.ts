import type { PaymentSettingsResponse } from '../../shared/api/contract';
import type { ChargeProvider } from '../../shared/charge-outcome';
import type { HealthView } from './health-window';

/**
 * Which card provider a new checkout pays with (docs/payments.md, "A failing provider routed
 * around"): the product API's own (`payment_gateway`, SPEC.md §7) unless it is failing and the
 * other is configured and not failing; then the other, but for the failing one's probe share,
 * so its recovery is seen. Pure: the health views and the visitor's draw are passed in.
 */

/** Why a checkout got its provider, as `provider_routed` logs it. */
export type RoutingReason = 'preferred' | 'rerouted' | 'probe' | 'no_alternative';

export interface CheckoutRoute {
  provider: ChargeProvider;
  reason: RoutingReason;
}

/**
 * The provider the product API names: Braintree when it says so; Stripe for Stripe, the test
 * gateway (whose polling route plays Stripe's part) and none (SPEC.md §4: the card provider).
 */
export function preferredProvider(settings: PaymentSettingsResponse): ChargeProvider {
  return settings.payment_gateway === 'braintree' ? 'braintree' : 'stripe';
}

/**
 * The card providers this checkout could use: listed by the deployment (`PAYMENT_PROVIDERS`)
 * and given their keys by the product API; the test gateway plays both.
 */
export function usableProviders(
  settings: PaymentSettingsResponse,
  configured: readonly string[],
): ChargeProvider[] {
  const keyed: Record<ChargeProvider, boolean> = {
    stripe: settings.payment_gateway === 'test' || Boolean(settings.stripe_publishable_key),
    braintree: settings.payment_gateway === 'test' || Boolean(settings.braintree_client_token),
  };
  return (['stripe', 'braintree'] as const).filter(
    (provider) => configured.includes(provider) && keyed[provider],
  );
}

/** The other card provider. */
export function otherProvider(provider: ChargeProvider): ChargeProvider {
  return provider === 'stripe' ? 'braintree' : 'stripe';
}

/**
 * The route of one new checkout. `draw` gives a number in [0, 1), asked only while the preferred
 * provider fails: below its probe share, the checkout is one of its probes.
 */
export function routeCheckout(input: {
  preferred: ChargeProvider;
  usable: readonly ChargeProvider[];
  health: (provider: ChargeProvider) => HealthView;
  draw: () => number;
}): CheckoutRoute {
  const { preferred, usable, health, draw } = input;
  const preferredHealth = health(preferred);
  if (!preferredHealth.failing) return { provider: preferred, reason: 'preferred' };
  const other = otherProvider(preferred);
  if (!usable.includes(other) || health(other).failing) {
    return { provider: preferred, reason: 'no_alternative' };
  }
  if (draw() < preferredHealth.share) return { provider: preferred, reason: 'probe' };
  return { provider: other, reason: 'rerouted' };
}
