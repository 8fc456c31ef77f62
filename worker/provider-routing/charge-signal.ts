import { type ApiCallName, ApiErrorBody, PollingResultResponse } from '../../shared/api/contract';
import {
  type ChargeOutcome,
  type ChargeProvider,
  chargeOutcomeOf,
} from '../../shared/charge-outcome';

/**
 * What one relayed charge call says about its provider (../provider-health/health-window.ts) and about the move to
 * the other (./provider-pin.ts), read from the answer the worker relays: the call's HTTP status, or
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
