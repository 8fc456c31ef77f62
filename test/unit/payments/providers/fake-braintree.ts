import type { Client } from 'braintree-web/client';
import type { HostedFieldsTokenizePayload } from 'braintree-web/hosted-fields';
import type { ThreeDSecureInfo, ThreeDSecureVerifyPayload } from 'braintree-web/three-d-secure';
import { vi } from 'vitest';
import type {
  BraintreeDeps,
  BraintreeHostedFields,
  BraintreeThreeDSecure,
} from '../../../../islands/payments/providers/braintree';

/**
 * braintree-web's client, hosted fields and 3-D Secure components, with the SDK's own payload
 * types (HostedFieldsTokenizePayload, ThreeDSecureVerifyPayload).
 */

/** The client is only handed from component to component: an opaque token is enough. */
export const client = { token: 'fake-client' } as unknown as Client;

export function tokenized(nonce: string, bin: string): HostedFieldsTokenizePayload {
  return {
    nonce,
    type: 'CreditCard',
    description: 'ending in 42',
    details: {
      bin,
      cardType: 'Visa',
      expirationMonth: '12',
      expirationYear: '2030',
      cardholderName: '',
      lastTwo: '42',
      lastFour: '4242',
    },
    binData: {} as HostedFieldsTokenizePayload['binData'],
  };
}

export function verified(
  nonce: string,
  liability: { liabilityShifted: boolean; liabilityShiftPossible: boolean },
  status: ThreeDSecureInfo['status'],
): ThreeDSecureVerifyPayload {
  return {
    nonce,
    type: 'CreditCard',
    description: 'ending in 42',
    details: { cardType: 'Visa', lastTwo: '42' },
    binData: {} as ThreeDSecureVerifyPayload['binData'],
    ...liability,
    threeDSecureInfo: { ...liability, status } as ThreeDSecureInfo,
  };
}

export function fakeBraintree() {
  const hostedFields = {
    tokenize: vi.fn<BraintreeHostedFields['tokenize']>(),
    teardown: vi.fn(async () => {}),
    focus: vi.fn<BraintreeHostedFields['focus']>(),
    on: vi.fn<BraintreeHostedFields['on']>(),
  } satisfies BraintreeHostedFields;
  const threeDSecure = {
    verifyCard: vi.fn<BraintreeThreeDSecure['verifyCard']>(),
    teardown: vi.fn(async () => {}),
  } satisfies BraintreeThreeDSecure;
  const createClient = vi.fn(async (_options: { authorization: string }) => client);
  const createHostedFields = vi.fn<Awaited<ReturnType<BraintreeDeps['hostedFields']>>['create']>(
    async () => hostedFields,
  );
  const createThreeDSecure = vi.fn<Awaited<ReturnType<BraintreeDeps['threeDSecure']>>['create']>(
    async () => threeDSecure,
  );
  const deps = {
    client: vi.fn(async () => ({ create: createClient })),
    hostedFields: vi.fn(async () => ({ create: createHostedFields })),
    threeDSecure: vi.fn(async () => ({ create: createThreeDSecure })),
  } satisfies BraintreeDeps;
  return { deps, hostedFields, threeDSecure, createClient, createHostedFields, createThreeDSecure };
}
