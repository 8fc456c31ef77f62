import type { z } from 'zod';
import type { ChargeReceipt, PollingResultData } from '../../shared/api/contract';
import {
  declinedPaymentText,
  paymentErrorText,
  paymentNoResultText,
  type VisitorText,
} from '../../shared/api/error-text';
import { ApiFailure } from '../../shared/api/request';
import { ProviderError } from './provider';
import type { PaidWith, PurchaseOutcome } from './purchase-types';

type ResultData = z.infer<typeof PollingResultData>;

/** What a finished charge says about itself (SPEC.md §3 Subscription response fields read). */
interface ChargeAnswer {
  subscription_id?: string | null;
  event_id?: string | null;
  price_with_discount?: number | null;
  currency?: string | null;
  card_brand?: string | null;
  card_last4?: string | null;
  wallet?: string | null;
  /** Added by the worker (worker/purchases/receipt.ts). */
  receipt?: unknown;
}

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
const time = (value: unknown): string | null =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : null;

/** The worker's receipt when it has the shape the receipt reads, else null (nothing to show). */
function receiptOf(raw: unknown): ChargeReceipt | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const amount = count(r.amount);
  const chargedAt = time(r.charged_at);
  const renewsAt = time(r.renews_at);
  const renewal = count(r.renewal_amount);
  if (typeof r.plan_id !== 'string' || amount === null || chargedAt === null) return null;
  if (typeof r.currency !== 'string' || !/^[A-Z]{3}$/.test(r.currency)) return null;
  if ((renewsAt === null) !== (r.renews_at === null)) return null;
  if ((renewal === null) !== (r.renewal_amount === null)) return null;
  return {
    plan_id: r.plan_id,
    amount,
    currency: r.currency,
    charged_at: chargedAt,
    renews_at: renewsAt,
    renewal_amount: renewal,
    // The subscriber's page, when the worker made a link (worker/subscriber-links/manage-link.ts).
    ...(typeof r.manage_url === 'string' ? { manage_url: r.manage_url } : {}),
  };
}

/** The wallet when the answer names one, else the card when it names both brand and digits. */
function paidWithOf(answer: ChargeAnswer): PaidWith | null {
  if (answer.wallet) return { kind: 'wallet', wallet: answer.wallet };
  if (answer.card_brand && answer.card_last4) {
    return { kind: 'card', brand: answer.card_brand, last4: answer.card_last4 };
  }
  return null;
}

/**
 * SPEC.md §4 Payment step 5: the subscription id, event id and discounted price. An answer without
 * a subscription id names nothing the visitor bought: §8's 'Unknown error. Please try again'.
 */
export function chargedOutcome(answer: ChargeAnswer | null): PurchaseOutcome {
  if (!answer?.subscription_id) return { kind: 'failed', text: paymentNoResultText() };
  return {
    kind: 'succeeded',
    subscriptionId: answer.subscription_id,
    eventId: answer.event_id ?? null,
    priceWithDiscount: answer.price_with_discount ?? null,
    currency: answer.currency ?? null,
    paidWith: paidWithOf(answer),
    receipt: receiptOf(answer.receipt),
  };
}

/**
 * A final polling result that is not a success (SPEC.md §4 step 7: the decline code is recorded):
 * declined when it carries a decline code, else failed; the processor's response is the text.
 */
export function refusedResultOutcome(result: ResultData): PurchaseOutcome {
  const text = declinedPaymentText({ processorResponse: result.processor_response });
  return result.decline_code
    ? {
        kind: 'declined',
        declineCode: result.decline_code,
        text,
        processorResponse: result.processor_response ?? null,
      }
    : { kind: 'failed', text };
}

/**
 * The card provider refused (creating the payment method, confirming it, verifying it). SPEC.md
 * §8: a confirmation error fails the payment and reports the decline code or processor response;
 * a creation error shows its message.
 */
export function providerRefusalOutcome(error: unknown): PurchaseOutcome {
  if (!(error instanceof ProviderError)) return { kind: 'failed', text: paymentErrorText(error) };
  const text: VisitorText = error.problem
    ? { key: error.problem }
    : declinedPaymentText({ message: error.message, processorResponse: error.processorResponse });
  return error.declineCode || error.processorResponse
    ? {
        kind: 'declined',
        declineCode: error.declineCode,
        text,
        processorResponse: error.processorResponse,
      }
    : { kind: 'failed', text };
}

/**
 * Anything else failed: a call of the API, or creating the payment method (SPEC.md §8 Payment).
 * A call the portal refused with a decline code (the direct call's declined charge) is a decline:
 * the code is recorded and the visitor goes to 'Payment declined' (SPEC.md §4 step 7). Its
 * messages are the worker's (worker/portal-client/portal-refusal.ts), not the processor's words.
 */
export function failedOutcome(error: unknown): PurchaseOutcome {
  const declineCode = error instanceof ApiFailure ? (error.errorBody?.decline_code ?? null) : null;
  if (declineCode) return { kind: 'declined', declineCode, text: declinedPaymentText({}) };
  const offered = error instanceof ApiFailure && error.code === 'provider_failed_other_offered';
  return {
    kind: 'failed',
    text: paymentErrorText(error),
    ...(offered ? { otherProvider: true } : {}),
  };
}

/** Only a result still pending keeps the attempt; every other outcome ends it. */
export function isFinal(outcome: PurchaseOutcome): boolean {
  return outcome.kind !== 'confirming';
}
