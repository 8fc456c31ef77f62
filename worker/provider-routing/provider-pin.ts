import { nextChargeStep } from '../../shared/charge-next-step';
import type { ChargeProvider } from '../../shared/charge-outcome';
import { otherProvider } from '../provider-health/checkout-routing';
import { type SignedCookies, VISIT_COOKIE_OPTIONS } from '../request/cookies';
import type { ChargeSignal } from './charge-signal';

/**
 * The visitor's card provider once given (docs/payments.md, "A failing provider routed around"):
 * `gf_pay`, signed for the visitor id like `gf_route` (worker/signing.ts), so a checkout under
 * way is never moved by a change of health, and a visitor cannot write one. Beside the provider
 * it keeps where the one move to the other provider stands (the declined page's offer,
 * pinAfterAnswer below):
 * - `none`: no decline has offered it yet;
 * - `offered`: a decline the other provider may approve (shared/charge-next-step.ts) came on the
 *   pinned provider: the declined page offers the other's form;
 * - `used`: the visitor moved, the pin now names the other provider;
 * - `closed`: a hard decline, a fraud block or a 3-D Secure challenge came: no move at all.
 */

const PIN_COOKIE = 'gf_pay';

const CASCADE_STATES = ['none', 'offered', 'used', 'closed'] as const;
export type CascadeState = (typeof CASCADE_STATES)[number];

export interface ProviderPin {
  provider: ChargeProvider;
  cascade: CascadeState;
}

const PIN = /^(stripe|braintree):(none|offered|used|closed)$/;

/** The visitor's pin, or null when none was given (or the cookie is not one we signed). */
export async function readPin(cookies: SignedCookies): Promise<ProviderPin | null> {
  const cookie = await cookies.read(PIN_COOKIE);
  if (cookie.state === 'invalid') cookies.reportInvalid(PIN_COOKIE, cookie.reason);
  if (cookie.state !== 'valid') return null;
  const match = PIN.exec(cookie.value);
  if (!match) return null;
  return { provider: match[1] as ChargeProvider, cascade: match[2] as CascadeState };
}

export async function writePin(cookies: SignedCookies, pin: ProviderPin): Promise<void> {
  await cookies.write(PIN_COOKIE, `${pin.provider}:${pin.cascade}`, VISIT_COOKIE_OPTIONS);
}

/**
 * The one move to the other provider after a decline (docs/payments.md, "The other provider's
 * form after a decline"), decided by the worker from the answers it relays, never by the page:
 * the pin (above) says whether the declined page may offer it, and the charge gate
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
 * (./stuck-attempt.ts): the other provider's form is offered when the pin is on the provider that
 * failed, the other is usable and not failing itself, and no hard decline or challenge closed the
 * pin. A move made before counts for nothing here: the one move is the declines' (a card the one
 * declined tried on the other once), and an outage is no decline, so a visitor whose checkout
 * moved and whose upsell then meets the new provider's outage is offered the first one back,
 * never left with nothing to press. Otherwise the pin stays: the visitor is told nothing was
 * charged, and may try again later.
 */
export function pinAfterProviderFailure(
  pin: ProviderPin | null,
  failed: ChargeProvider,
  other: { usable: boolean; failing: boolean },
): ProviderPin | null {
  if (pin === null || pin.provider !== failed) return pin;
  if (pin.cascade === 'closed' || pin.cascade === 'offered') return pin;
  return other.usable && !other.failing ? { ...pin, cascade: 'offered' } : pin;
}

/**
 * Whether 'Payment declined' offers this visitor the other provider's form: the pin the worker
 * signed says a decline that provider may approve came, and the one move is not spent. The page
 * shows what this says; the switch (./provider-routes.ts) and the charge gate check it again.
 */
export async function otherProviderOfferedTo(cookies: SignedCookies): Promise<boolean> {
  return otherProviderOffered(await readPin(cookies)) !== null;
}
