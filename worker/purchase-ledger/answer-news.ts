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
 * product API passes on (SPEC.md §3, §7), and the network's own codes when it passes those on
 * too (ours, the contract's NetworkCodes). Pure.
 */

/** An answer as the worker relays it; null when none came (a timeout, the portal unreachable). */
export type RelayedAnswer = { status: number; body: unknown } | null;

/** The network's codes of a decline, as the product API passed them on (or null). */
export interface NetworkCodes {
  responseCode: string | null;
  adviceCode: string | null;
}

/** What an answer says of its attempt, and the network's codes for the retry governor. */
export type AnswerNews = AttemptNews & { codes: NetworkCodes };

const NO_CODES: NetworkCodes = { responseCode: null, adviceCode: null };
const reading = (outcome: ChargeReading['outcome']): ChargeReading => ({ outcome, advised: false });
const UNKNOWN: AnswerNews = { reading: reading('TECH_UNKNOWN'), codes: NO_CODES };
const NOT_SENT: AnswerNews = { reading: reading('TECH_NOT_SENT'), codes: NO_CODES };
const AUTHENTICATE: AnswerNews = {
  reading: reading('AUTH_REQUIRED'),
  challenged: true,
  codes: NO_CODES,
};

/** The network codes of a decline's fields (the contract's `network_decline_code`, `…advice_code`). */
function codesOf(fields: {
  network_decline_code?: string | null;
  network_advice_code?: string | null;
}): NetworkCodes {
  return {
    responseCode: fields.network_decline_code ?? null,
    adviceCode: fields.network_advice_code ?? null,
  };
}

/** A decline's news: its outcome read with the network's codes first, and the codes. */
export function declineNews(
  code: string | null,
  processorResponse: string | null,
  codes: NetworkCodes,
) {
  const answer = declineAnswerOf(code, processorResponse, codes);
  return { reading: chargeOutcomeOf(answer), codes };
}

/**
 * A decline as the provider would have answered it: a Braintree processor response code (four
 * digits, also at the start of `processor_response`, "2001 Insufficient Funds"), else Stripe's
 * decline code, which the test gateway also speaks.
 */
function declineAnswerOf(
  code: string | null,
  processorResponse: string | null,
  codes: NetworkCodes,
): ChargeAnswer {
  const processor = (code ?? processorResponse ?? '').trim().match(/^\d{4}\b/)?.[0];
  if (processor) {
    return {
      kind: 'braintree',
      status: 'processor_declined',
      processorResponseCode: processor,
      networkResponseCode: codes.responseCode,
      merchantAdviceCode: codes.adviceCode,
    };
  }
  return {
    kind: 'stripe',
    status: 'requires_payment_method',
    error: {
      type: 'card_error',
      decline_code: code,
      message: processorResponse,
      network_decline_code: codes.responseCode,
      network_advice_code: codes.adviceCode,
    },
  };
}

function pollingResultNews(status: number, body: unknown): AnswerNews {
  if (status === 202) return { reading: null, codes: NO_CODES };
  const parsed = PollingResultResponse.safeParse(body);
  const result = parsed.success ? parsed.data.data.result_data : null;
  if (status !== 200 || result === null) return { reading: null, codes: NO_CODES };
  switch (result.status) {
    case 'succeeded':
      return { reading: reading('APPROVED'), codes: NO_CODES };
    case 'failed':
      return declineNews(
        result.decline_code ?? null,
        result.processor_response ?? null,
        codesOf(result),
      );
    case 'requires_action':
      return AUTHENTICATE;
    default:
      return UNKNOWN;
  }
}

function directNews(status: number, body: unknown): AnswerNews {
  if (status < 300) {
    const charged = (body as { data?: { subscription_id?: unknown } } | null)?.data;
    return charged?.subscription_id ? { reading: reading('APPROVED'), codes: NO_CODES } : UNKNOWN;
  }
  const refusal = ApiErrorBody.safeParse(body);
  if (refusal.success && refusal.data.data?.payment_method_nonce) return AUTHENTICATE;
  if (refusal.success && refusal.data.decline_code) {
    return declineNews(refusal.data.decline_code, null, codesOf(refusal.data));
  }
  return NOT_SENT;
}

/**
 * The news of one answer about an attempt. No answer, or a 5xx, may have charged (TECH_UNKNOWN);
 * a 4xx that is no decline was refused before any charge (TECH_NOT_SENT); a polling start names
 * where the result will be, and a 202 says nothing yet.
 */
export function answerNews(call: ApiCallName, answer: RelayedAnswer): AnswerNews {
  if (answer === null || answer.status >= 500) return UNKNOWN;
  const { status, body } = answer;
  if (call === 'pollingResult') return pollingResultNews(status, body);
  if (call === 'directSubscription') return directNews(status, body);
  if (status >= 300) return NOT_SENT;
  const started = PollingStartResponse.safeParse(body);
  return started.success
    ? { reading: null, pollingId: started.data.data.polling_result_id, codes: NO_CODES }
    : UNKNOWN;
}
