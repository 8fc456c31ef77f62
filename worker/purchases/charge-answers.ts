import {
  type ApiCallName,
  ApiErrorBody,
  DirectSubscriptionResponse,
  PollingResultResponse,
} from '../../shared/api/contract';

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
