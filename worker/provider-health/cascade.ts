import { nextChargeStep } from '../../shared/charge-next-step';
import type { ChargeProvider } from '../../shared/charge-outcome';
import type { ChargeSignal } from './charge-signal';
import { otherProvider } from './checkout-routing';
import type { ProviderPin } from './provider-pin';

/**
 * The one move to the other provider after a decline (docs/payments.md, "The other provider's
 * form after a decline"), decided by the worker from the answers it relays, never by the page:
 * the pin (./provider-pin.ts) says whether the declined page may offer it, and the charge gate
 * refuses a charge on the other provider once the move is spent or closed. Pure.
 */

/**
 * The pin after a charge answer on `charged`: a decline nextChargeStep lets go to the other
 * provider opens the offer (once, and only on the pinned provider); a hard decline, a fraud block,
 * a failed authentication or a 3-D Secure challenge closes it, the pin staying on the provider
 * that answered.
 */
export function pinAfterAnswer(
  pin: ProviderPin,
  charged: ChargeProvider,
  signal: ChargeSignal,
  usable: readonly ChargeProvider[],
): ProviderPin {
  if (pin.cascade === 'closed') return pin;
  if (signal.kind === 'challenged') return { provider: charged, cascade: 'closed' };
  if (signal.kind !== 'declined') return pin;
  const step = nextChargeStep(
    [{ provider: charged, outcome: signal.outcome, advised: signal.advised, challenged: false }],
    { initiator: 'customer', providers: usable },
  );
  if (step.step === 'other_provider') {
    const opens = pin.cascade === 'none' && charged === pin.provider;
    return opens ? { ...pin, cascade: 'offered' } : pin;
  }
  if (step.step === 'later') return pin;
  return { provider: charged, cascade: 'closed' };
}

/** Whether the declined page offers the other provider's form: the worker's word, from the pin. */
export function otherProviderOffered(pin: ProviderPin | null): ChargeProvider | null {
  return pin?.cascade === 'offered' ? otherProvider(pin.provider) : null;
}

/**
 * A charge on `charging` against the pin: the same provider always goes; the other goes while no
 * decline has closed the move (a checkout id that forces a provider, SPEC.md §2), and once offered
 * it spends the move (the pin follows it). After the move, or after a hard decline, the other is
 * refused.
 */
export function gateCharge(
  pin: ProviderPin | null,
  charging: ChargeProvider,
): { ok: true; pin: ProviderPin | null } | { ok: false } {
  if (pin === null || pin.provider === charging || pin.cascade === 'none') return { ok: true, pin };
  if (pin.cascade === 'offered') return { ok: true, pin: { provider: charging, cascade: 'used' } };
  return { ok: false };
}

/**
 * The pin after the visitor's attempt on `failed` was closed unpaid while that provider failed
 * (./stuck-attempt.ts): the other provider's form is offered when the move is still open, the
 * pin is on the provider that failed, the other is usable and not failing itself. Otherwise the
 * pin stays: the visitor is told nothing was charged, and may try again later.
 */
export function pinAfterProviderFailure(
  pin: ProviderPin | null,
  failed: ChargeProvider,
  other: { usable: boolean; failing: boolean },
): ProviderPin | null {
  if (pin === null || pin.cascade !== 'none' || pin.provider !== failed) return pin;
  return other.usable && !other.failing ? { ...pin, cascade: 'offered' } : pin;
}
