import {
  type ApiCallName,
  ApiErrorBody,
  PollingResultResponse,
  PollingStartResponse,
} from '../../shared/api/contract';
import {
  type ChargeAnswer,
  type ChargeReading,
  chargeOutcomeOf,
} from '../../shared/charge-outcome';
import type { AttemptNews } from './ledger';

/**
 * What the product API's answer to a charge call says of its attempt, for the purchase's ledger
 * and the retry governor (docs/payments.md "One charge per purchase"): read with the charge
 * outcome's tables (shared/charge-outcome.ts), from the decline code and processor response the
 * product API passes on (SPEC.md §3, §7). Pure.
 */

/** An answer as the worker relays it; null when none came (a timeout, the portal unreachable). */
export type RelayedAnswer = { status: number; body: unknown } | null;

const reading = (outcome: ChargeReading['outcome']): ChargeReading => ({ outcome, advised: false });
const UNKNOWN: AttemptNews = { reading: reading('TECH_UNKNOWN') };
const NOT_SENT: AttemptNews = { reading: reading('TECH_NOT_SENT') };
const AUTHENTICATE: AttemptNews = { reading: reading('AUTH_REQUIRED'), challenged: true };

/**
 * A decline as the provider would have answered it: a Braintree processor response code (four
 * digits, also at the start of `processor_response`, "2001 Insufficient Funds"), else Stripe's
 * decline code, which the test gateway also speaks.
 */
function declineAnswerOf(code: string | null, processorResponse: string | null): ChargeAnswer {
  const processor = (code ?? processorResponse ?? '').trim().match(/^\d{4}\b/)?.[0];
  if (processor) {
    return { kind: 'braintree', status: 'processor_declined', processorResponseCode: processor };
  }
  return {
    kind: 'stripe',
    status: 'requires_payment_method',
    error: { type: 'card_error', decline_code: code, message: processorResponse },
  };
}

function pollingResultNews(status: number, body: unknown): AttemptNews {
  if (status === 202) return { reading: null };
  const parsed = PollingResultResponse.safeParse(body);
  const result = parsed.success ? parsed.data.data.result_data : null;
  if (status !== 200 || result === null) return { reading: null };
  switch (result.status) {
    case 'succeeded':
      return { reading: reading('APPROVED') };
    case 'failed':
      return {
        reading: chargeOutcomeOf(
          declineAnswerOf(result.decline_code ?? null, result.processor_response ?? null),
        ),
      };
    case 'requires_action':
      return AUTHENTICATE;
    default:
      return UNKNOWN;
  }
}

function directNews(status: number, body: unknown): AttemptNews {
  if (status < 300) {
    const charged = (body as { data?: { subscription_id?: unknown } } | null)?.data;
    return charged?.subscription_id ? { reading: reading('APPROVED') } : UNKNOWN;
  }
  const refusal = ApiErrorBody.safeParse(body);
  if (refusal.success && refusal.data.data?.payment_method_nonce) return AUTHENTICATE;
  if (refusal.success && refusal.data.decline_code) {
    return { reading: chargeOutcomeOf(declineAnswerOf(refusal.data.decline_code, null)) };
  }
  return NOT_SENT;
}

/**
 * The news of one answer about an attempt. No answer, or a 5xx, may have charged (TECH_UNKNOWN);
 * a 4xx that is no decline was refused before any charge (TECH_NOT_SENT); a polling start names
 * where the result will be, and a 202 says nothing yet.
 */
export function answerNews(call: ApiCallName, answer: RelayedAnswer): AttemptNews {
  if (answer === null || answer.status >= 500) return UNKNOWN;
  const { status, body } = answer;
  if (call === 'pollingResult') return pollingResultNews(status, body);
  if (call === 'directSubscription') return directNews(status, body);
  if (status >= 300) return NOT_SENT;
  const started = PollingStartResponse.safeParse(body);
  return started.success
    ? { reading: null, pollingId: started.data.data.polling_result_id }
    : UNKNOWN;
}
