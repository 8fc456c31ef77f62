import {
  type ApiCallName,
  ApiErrorBody,
  DirectSubscriptionResponse,
  PollingResultResponse,
  type SubscriptionRequest,
} from '../../shared/api/contract';
import {
  type DeclineClass,
  declineClassOf,
  type ProviderDecline,
} from '../../shared/decline-class';
import { isPlanId, planById } from '../../shared/plans/catalogue';

/**
 * A charge call through the worker: the body the product API gets (withChargedPrice,
 * withPurchaseId) and what its answers prove (verifiedChargeOf, declineOf).
 */

/**
 * The charge request as the product API gets it: with the currency and price id of the catalogue
 * plan the offer gate let through (`:planId`), as top-level `currency` and `price_id`, and the
 * same `currency` in `user_data`. The page's own `user_data.currency` is replaced, not trusted:
 * the visitor's currency is the worker's to say (worker/funnel/locale.ts), and the
 * offer gate already refused a plan of another one. A body that names no catalogue plan is sent
 * as it came.
 */
export function withChargedPrice(
  body: SubscriptionRequest,
  planId: string | null,
): SubscriptionRequest {
  if (planId === null || !isPlanId(planId)) return body;
  const plan = planById(planId);
  return {
    ...body,
    currency: plan.currency,
    price_id: plan.id,
    user_data: { ...body.user_data, currency: plan.currency, price_id: plan.id },
  };
}

/**
 * The charge request with the purchase's id from its attempt ledger
 * (worker/purchase-ledger/charge-guard.ts), the one the product API de-duplicates the
 * subscription on; without one (the ledger could not be reached) none is sent. Whatever the
 * browser put there is never passed on: a visitor cannot name another's purchase.
 */
export function withPurchaseId(
  body: SubscriptionRequest,
  purchaseId: string | null,
): SubscriptionRequest {
  const { purchase_id: _sent, ...rest } = body;
  return purchaseId === null ? rest : { ...rest, purchase_id: purchaseId };
}

/**
 * What the charge answers the worker relays prove: a purchase, or a decline. Read
 * from the product API's answer only, never from anything the browser says about it.
 */

/** A final successful charge, in the product API's words only. */
export interface VerifiedCharge {
  subscriptionId: string;
  /** The portal's event id: the browser pixel sends the same one, so networks count it once. */
  eventId: string;
  /** What was charged, after any discount; null when the answer did not say. */
  amount: number | null;
  /** ISO 4217, upper case; null when the answer did not say. */
  currency: string | null;
  planId: string | null;
}

interface ChargeFields {
  subscription_id?: string | null;
  event_id?: string | null;
  price_with_discount?: number | null;
  currency?: string | null;
  plan_id?: string | null;
}

function verified(fields: ChargeFields): VerifiedCharge | null {
  if (!fields.subscription_id) return null;
  const amount = fields.price_with_discount;
  return {
    subscriptionId: fields.subscription_id,
    eventId: fields.event_id || fields.subscription_id,
    amount: typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? amount : null,
    currency: fields.currency ? fields.currency.toUpperCase() : null,
    planId: fields.plan_id || null,
  };
}

/**
 * The charge an answer the worker relays proves, or null: a polling result that is final (not
 * 202) and 'succeeded' with a subscription id, or a direct subscription call's 2xx with one. A
 * polling start, a pending, declined, failed or 3-D Secure result proves nothing was bought.
 * What the answer leaves out stays null here: ./catalogue-charge.ts fills it from what was asked.
 */
export function verifiedChargeOf(
  call: ApiCallName,
  status: number,
  body: unknown,
): VerifiedCharge | null {
  if (status < 200 || status >= 300) return null;
  if (call === 'pollingResult' && status !== 202) {
    const answer = PollingResultResponse.safeParse(body);
    const result = answer.success ? answer.data.data.result_data : null;
    return result?.status === 'succeeded' ? verified(result) : null;
  }
  if (call === 'directSubscription') {
    const answer = DirectSubscriptionResponse.safeParse(body);
    return answer.success ? verified(answer.data.data) : null;
  }
  return null;
}

/**
 * The decline an answer reports, named so that reading it again counts it once: a final polling
 * result that failed (named by its polling id), or a direct charge refused with a decline code
 * (named by its attempt). Null for anything else: a success, a pending result, 'User action
 * required', a refusal that is not the card's.
 */
export function declineOf(
  call: ApiCallName,
  status: number,
  body: unknown,
  names: { pollingId: string | null; attempt: string },
): string | null {
  if (call === 'pollingResult' && status === 200 && names.pollingId !== null) {
    const answer = PollingResultResponse.safeParse(body);
    const result = answer.success ? answer.data.data.result_data : null;
    return result?.status === 'failed' ? `polling:${names.pollingId}` : null;
  }
  if (call === 'directSubscription' && status >= 400 && status < 500) {
    const refusal = ApiErrorBody.safeParse(body);
    return refusal.success && refusal.data.decline_code ? `attempt:${names.attempt}` : null;
  }
  return null;
}

/** What a decline's log line says of it: its class and the code it was read from. */
export interface DeclineReport {
  decline_class: DeclineClass;
  /** The gateway's decline code, else Braintree's processor code; 'declined' when only words. */
  decline_code: string;
}

/** A code as a log line carries it: a short code, never the API's free words. */
const loggable = (code: string | null | undefined): string | null =>
  code && /^[\w.-]{1,64}$/.test(code.trim()) ? code.trim() : null;

/**
 * The class and code of a decline the answer reports (the same answers declineOf counts): a
 * final polling result that failed, read from its decline code and processor response, or a
 * direct charge refused with a decline code. Null for anything that is not a decline.
 */
export function declineReportOf(
  call: ApiCallName,
  status: number,
  body: unknown,
): DeclineReport | null {
  let decline: ProviderDecline | null = null;
  if (call === 'pollingResult' && status === 200) {
    const answer = PollingResultResponse.safeParse(body);
    const result = answer.success ? answer.data.data.result_data : null;
    if (result?.status === 'failed') {
      decline = { declineCode: result.decline_code, processorResponse: result.processor_response };
    }
  }
  if (call === 'directSubscription' && status >= 400 && status < 500) {
    const refusal = ApiErrorBody.safeParse(body);
    if (refusal.success && refusal.data.decline_code) {
      decline = { declineCode: refusal.data.decline_code };
    }
  }
  if (decline === null) return null;
  const processorCode = decline.processorResponse?.trim().match(/^\d{4}\b/)?.[0];
  return {
    decline_class: declineClassOf(decline),
    decline_code: loggable(decline.declineCode) ?? processorCode ?? 'declined',
  };
}
