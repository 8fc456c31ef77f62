import {
  PAYMENT_GATEWAYS,
  type PaymentGateway,
  type PaymentSettingsResponse,
} from '../shared/api/contract';
import { oneOf } from '../shared/one-of';
import type { PortalBindings } from './env';

const DEFAULT_GATEWAY: PaymentGateway = 'test';
/** What the checkout shows as the merchant when the emulator's own test gateway is in use. */
const TEST_GATEWAY_ACCOUNT_NAME = 'Geofunnel test gateway';

export interface PaymentSettingsReading {
  settings: PaymentSettingsResponse;
  /** Set when the configuration named an unknown gateway and the default was used instead. */
  invalidGateway?: string;
}

/**
 * GET /users/me/payments-settings (SPEC.md §7) from the emulator's configuration: which gateway
 * the checkout uses and its public keys. Unset keys are null, as the product API answers them.
 */
export function paymentSettingsFrom(env: PortalBindings): PaymentSettingsReading {
  const configured = env.PORTAL_PAYMENT_GATEWAY?.trim() || DEFAULT_GATEWAY;
  const known = isPaymentGateway(configured);
  const gateway = known ? configured : DEFAULT_GATEWAY;
  const settings: PaymentSettingsResponse = {
    payment_gateway: gateway,
    stripe_publishable_key: env.PORTAL_STRIPE_PUBLISHABLE_KEY || null,
    stripe_account_name:
      env.PORTAL_STRIPE_ACCOUNT_NAME || (gateway === 'test' ? TEST_GATEWAY_ACCOUNT_NAME : null),
    braintree_client_token: env.PORTAL_BRAINTREE_CLIENT_TOKEN || null,
    request_three_d_secure: env.PORTAL_REQUEST_THREE_D_SECURE === 'true',
  };
  return known ? { settings } : { settings, invalidGateway: configured };
}

const isPaymentGateway = oneOf(PAYMENT_GATEWAYS);
