import type { ChargeAnswer, ChargeReading } from '../../shared/charge-outcome';
import type { SettledOutcome } from '../retry-governor/card-attempts';

/**
 * What the retry governor keeps of an attempt's answer (docs/payments.md "The retry governor"):
 * an approval, or a decline with the network's own codes; null while it is not known whether it
 * charged (a timeout, a 5xx), so it stays counted as pending until it is reconciled. An attempt
 * refused before it reached the network (TECH_NOT_SENT) is still kept as a decline: counting one
 * too many is stricter than the networks, never looser.
 */
export function cardOutcomeOf(
  reading: ChargeReading,
  codes: { responseCode: string | null; adviceCode: string | null },
): SettledOutcome | null {
  if (reading.outcome === 'APPROVED') return { result: 'approved' };
  if (reading.outcome === 'TECH_UNKNOWN') return null;
  return { result: 'declined', ...codes };
}

/** The network's codes of a provider's answer: Visa's response code, Mastercard's advice code. */
export function networkCodesOf(answer: ChargeAnswer): {
  responseCode: string | null;
  adviceCode: string | null;
} {
  switch (answer.kind) {
    case 'stripe':
      return {
        responseCode: answer.error?.network_decline_code ?? null,
        adviceCode: answer.error?.network_advice_code ?? null,
      };
    case 'braintree':
      return {
        responseCode: answer.networkResponseCode ?? null,
        adviceCode: answer.merchantAdviceCode ?? null,
      };
    case 'unanswered':
      return { responseCode: null, adviceCode: null };
  }
}
