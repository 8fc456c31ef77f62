import { findTestCardFingerprint } from '../../portal/store/test-payment-methods';
import { cardNetworkOf } from '../../shared/card-network';
import type { CardFingerprintSource } from '../checkout/charge-call';
import { isDevelopment } from '../environment';

/** The test gateway's nonces (portal/test-gateway/payment-ids.ts). */
const TEST_GATEWAY_NONCE = /^tpm_[A-Za-z0-9_-]{1,200}$/;

/**
 * The fingerprint and network the test gateway kept for one of its nonces, as Stripe's lookup
 * answers for its own (worker/checkout/charge-call.ts), so the per-card charge limit and the
 * retry governor's network rules work locally too.
 */
export const testGatewayFingerprint: CardFingerprintSource = async (nonce, env) => {
  if (!isDevelopment(env) || !env.PORTAL_DB || !TEST_GATEWAY_NONCE.test(nonce)) return null;
  const card = await findTestCardFingerprint(env.PORTAL_DB, nonce);
  return (
    card && { fingerprint: card.fingerprint, network: cardNetworkOf(card.brand), testCard: true }
  );
};
