import { describe, expect, it, vi } from 'vitest';
import type { CardFieldLabels, CardPaymentMethod } from '../../../../islands/payments/provider';
import { closingSheetBeforeChallenge } from '../../../../islands/payments/providers/wallet-sheet';

/** An adapter written as a class: its methods need `this` to reach their state. */
class StatefulProvider {
  readonly id = 'stripe' as const;
  readonly calls: string[] = [];
  private readonly secretPrefix = 'pi_';
  async mount(_container: HTMLElement, _options: { language: string; labels: CardFieldLabels }) {
    this.calls.push('mount');
  }
  unmount() {
    this.calls.push('unmount');
  }
  async createPaymentMethod(): Promise<CardPaymentMethod> {
    this.calls.push('createPaymentMethod');
    return { nonce: 'pm_1', bin: '424242' };
  }
  async confirmCardPayment(intentSecret: string) {
    this.calls.push('confirmCardPayment');
    return `${this.secretPrefix}${intentSecret.split('_secret')[0]}`;
  }
}

/** Braintree's shape: the alternate provider verifies with a challenge of its own. */
class VerifyingProvider extends StatefulProvider {
  async verifyCard(input: { nonce: string }) {
    this.calls.push('verifyCard');
    return `verified-${input.nonce}`;
  }
}

describe('closingSheetBeforeChallenge', () => {
  it('closes the sheet before the challenge opens, then confirms with the provider itself', async () => {
    const provider = new StatefulProvider();
    const close = vi.fn(() => provider.calls.push('close'));
    const wrapped = closingSheetBeforeChallenge(provider, close);
    await expect(wrapped.confirmCardPayment('3ds_secret_x')).resolves.toBe('pi_3ds');
    expect(provider.calls).toEqual(['close', 'confirmCardPayment']);
  });

  it('hands every other member to the provider, leaving the sheet open', async () => {
    const provider = new StatefulProvider();
    const close = vi.fn();
    const wrapped = closingSheetBeforeChallenge(provider, close);
    expect(wrapped.id).toBe('stripe');
    await wrapped.mount({} as HTMLElement, {
      language: 'en',
      labels: { number: 'n', expiry: 'e', cvv: 'c', name: 'm' },
    });
    await expect(wrapped.createPaymentMethod({ cardholderName: '' })).resolves.toEqual({
      nonce: 'pm_1',
      bin: '424242',
    });
    wrapped.unmount();
    expect(provider.calls).toEqual(['mount', 'createPaymentMethod', 'unmount']);
    expect(close).not.toHaveBeenCalled();
    // A provider without verifyCard stays one: the state machine asks whether it exists.
    expect(wrapped.verifyCard).toBeUndefined();
  });

  it("closes the sheet before verifyCard's challenge too, when the provider has one", async () => {
    const provider = new VerifyingProvider();
    const wrapped = closingSheetBeforeChallenge(provider, () => provider.calls.push('close'));
    const input = { nonce: 'n', amount: '6.99', email: 'a@example.com', bin: null };
    await expect(wrapped.verifyCard?.(input)).resolves.toBe('verified-n');
    expect(provider.calls).toEqual(['close', 'verifyCard']);
  });
});
