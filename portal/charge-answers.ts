import type { z } from 'zod';
import type { DirectSubscriptionResponse, PollingResultData } from '../shared/api/contract';
import { isPlanId, planById } from '../shared/plans/catalogue';
import type { Charge, ChargedCard } from './charges';
import { PortalError } from './portal-error';

/**
 * What the subscription calls of SPEC.md §7 answer for a charge, built from the stored row alone,
 * so a replayed charge answers exactly what the first one did.
 */

type PollingResult = z.infer<typeof PollingResultData>;

/**
 * What a successful charge was for, as the product API tells the worker (contract ChargedItem):
 * the plan, its catalogue currency (a plan id outside the catalogue names none), and the test
 * gateway's card it was charged to (another gateway's nonce names no card here).
 */
function chargedItemOf(planId: string, card: ChargedCard | null) {
  return {
    plan_id: planId,
    currency: isPlanId(planId) ? planById(planId).currency : null,
    card_brand: card?.brand ?? null,
    card_last4: card?.last4 ?? null,
  };
}

const RESULT_STATUS = {
  active: 'succeeded',
  declined: 'failed',
  requires_action: 'requires_action',
} as const;

/** `data.result_data` of GET /polling/get-result once final (SPEC.md §3 response fields). */
export function pollingResultOf({ subscription, intentSecret, card }: Omit<Charge, 'replayedKey'>) {
  const charged = subscription.status === 'active';
  const result: PollingResult = {
    status: RESULT_STATUS[subscription.status],
    subscription_id: charged ? subscription.id : null,
    event_id: subscription.eventId,
    price_with_discount: subscription.priceWithDiscount,
    payment_intent_secret: subscription.status === 'requires_action' ? intentSecret : null,
    payment_intent_id: subscription.paymentIntentId,
    decline_code: subscription.declineCode,
    processor_response: subscription.processorResponse,
    ...(charged ? chargedItemOf(subscription.planId, card) : {}),
  };
  return result;
}

/**
 * The direct call's answer (the alternate gateway, SPEC.md §7): the subscription, or for a
 * declined charge 422 with the processor's text as the message and the gateway's decline code as
 * `decline_code`, which the client records (SPEC.md §4 Payment step 7).
 */
export function directAnswerOf(charge: Charge, userId: string): DirectSubscriptionResponse {
  const { subscription } = charge;
  if (subscription.status !== 'active') {
    throw new PortalError(
      422,
      'payment_declined',
      subscription.processorResponse ?? 'Your card was declined.',
      undefined,
      subscription.declineCode ?? 'card_declined',
    );
  }
  return {
    data: {
      customer_id: `cus_${userId}`,
      subscription_id: subscription.id,
      event_id: subscription.eventId,
      price_with_discount: subscription.priceWithDiscount,
      ...chargedItemOf(subscription.planId, charge.card),
    },
  };
}
