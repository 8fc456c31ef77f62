import { randomToken } from '../tokens';

/**
 * Ids of the test gateway's objects, named the way Stripe names its own: `tpm_…` payment
 * methods (the nonce the checkout sends) and `tpi_…` payment intents, whose secret
 * `tpi_<id>_secret_<random>` embeds the id (shared/test-gateway-protocol.ts `intentIdOfSecret`).
 * Hex ids, so an id never contains the `_` that separates the secret's parts.
 */

function hexId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `${prefix}_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export function newPaymentMethodId(): string {
  return hexId('tpm');
}

export function newPaymentIntentId(): string {
  return hexId('tpi');
}

export function intentSecretOf(intentId: string): string {
  return `${intentId}_secret_${randomToken(18)}`;
}

function isTestPaymentMethodId(nonce: string): boolean {
  return nonce.startsWith('tpm_');
}

/**
 * The test gateway decides every charge made with one of its nonces, whatever gateway name the
 * client sent with it; any other nonce (a Stripe `pm_…`, a Braintree nonce) succeeds as before.
 */
export function isTestGatewayCharge(nonce: string): boolean {
  return isTestPaymentMethodId(nonce);
}
