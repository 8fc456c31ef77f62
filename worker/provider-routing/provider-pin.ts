import { type ApiCallName, ApiErrorBody, PollingResultResponse } from '../../shared/api/contract';
import { nextChargeStep } from '../../shared/charge-next-step';
import {
  type ChargeOutcome,
  type ChargeProvider,
  chargeOutcomeOf,
} from '../../shared/charge-outcome';
import { otherProvider } from '../provider-health/checkout-routing';
import { type SignedCookies, VISIT_COOKIE_OPTIONS } from '../request/cookies';

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

/**
 * What one relayed charge call says about its provider (../provider-health/health-window.ts) and about the move to
 * the other (the pin, above), read from the answer the worker relays: the call's HTTP status, or
 * the refusal it made of a product API that did not answer. Pure.
 */

/** The provider a charge call pays with: the card provider's polling route is Stripe's (or the
 * test gateway playing it), the alternate provider's direct call Braintree's (SPEC.md §7). */
export function chargeProviderOf(call: ApiCallName): ChargeProvider | null {
  if (call === 'pollingSubscription' || call === 'pollingResult') return 'stripe';
  if (call === 'directSubscription') return 'braintree';
  return null;
}

export type ChargeSignal =
  /** Nothing to learn: a result still pending, an answer that is no charge's. */
  | { kind: 'none' }
  /** The call went through: no technical failure (a decline included). */
  | { kind: 'answered' }
  /** A timeout, no answer, an unreadable one, a 5xx, a technical processor code. */
  | { kind: 'technical' }
  /** The card was declined, as chargeOutcomeOf reads it. */
  | { kind: 'declined'; outcome: ChargeOutcome; advised: boolean }
  /** The bank's 3-D Secure check was asked for: no move to the other provider after it. */
  | { kind: 'challenged' };

/** How the call came back: the worker's refusal of a silent product API, or an answer. */
export type RelayedCharge =
  | { answered: false; refusal: string }
  | { answered: true; status: number; body: unknown };

/** The refusals the worker makes when the product API did not answer usably. */
const UNANSWERED = new Set(['portal_timeout', 'portal_unavailable', 'portal_bad_response']);

/** Braintree's processor code at the start of its words: '3000 Processor Network Unavailable'. */
const PROCESSOR_CODE = /^([1-3]\d{3})\b/;

function declinedBy(provider: ChargeProvider, code: string | null, words: string | null) {
  const processorCode = PROCESSOR_CODE.exec(words?.trim() ?? '')?.[1];
  const reading =
    provider === 'braintree' && processorCode
      ? chargeOutcomeOf({
          kind: 'braintree',
          status: 'processor_declined',
          processorResponseCode: processorCode,
        })
      : chargeOutcomeOf({
          kind: 'stripe',
          status: 'requires_payment_method',
          error: { type: 'card_error', code: 'card_declined', decline_code: code },
        });
  return reading;
}

function signalOfDecline(provider: ChargeProvider, code: string | null, words: string | null) {
  const { outcome, advised } = declinedBy(provider, code, words);
  if (outcome === 'TECH_NOT_SENT' || outcome === 'TECH_UNKNOWN')
    return { kind: 'technical' } as const;
  return { kind: 'declined', outcome, advised } as const;
}

function pollingSignal(status: number, body: unknown): ChargeSignal {
  if (status !== 200) return status >= 500 ? { kind: 'technical' } : { kind: 'none' };
  const parsed = PollingResultResponse.safeParse(body);
  const result = parsed.success ? parsed.data.data.result_data : null;
  if (result?.status === 'requires_action') return { kind: 'challenged' };
  if (result?.status !== 'failed') return { kind: 'none' };
  return signalOfDecline('stripe', result.decline_code ?? null, result.processor_response ?? null);
}

function directSignal(status: number, body: unknown): ChargeSignal {
  if (status < 400) return { kind: 'answered' };
  const refusal = ApiErrorBody.safeParse(body);
  if (!refusal.success) return { kind: 'answered' };
  if (refusal.data.data?.payment_method_nonce) return { kind: 'challenged' };
  if (!refusal.data.decline_code) return { kind: 'answered' };
  return signalOfDecline(
    'braintree',
    refusal.data.decline_code,
    refusal.data.errors.messages[0] ?? null,
  );
}

/** What the relayed answer of `call` says. */
export function chargeSignalOf(call: ApiCallName, relayed: RelayedCharge): ChargeSignal {
  if (chargeProviderOf(call) === null) return { kind: 'none' };
  if (!relayed.answered) {
    return UNANSWERED.has(relayed.refusal) ? { kind: 'technical' } : { kind: 'none' };
  }
  if (relayed.status >= 500) return { kind: 'technical' };
  if (call === 'pollingResult') return pollingSignal(relayed.status, relayed.body);
  if (call === 'directSubscription') return directSignal(relayed.status, relayed.body);
  return { kind: 'answered' };
}
