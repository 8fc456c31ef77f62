import { expect } from 'vitest';
import { ProviderError } from '../../../../islands/payments/provider';

/** The ProviderError `promise` rejects with; fails the test when it resolves or throws another. */
export async function providerRejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
