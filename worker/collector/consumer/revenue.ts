import { isMoneyKind, MONEY_EVENTS, MONEY_SIGN } from '../../../shared/analytics/money-events';
import { isPlanId, planById } from '../../../shared/plans/catalogue';
import { isVerifiedPurchase, type QueuedEvent } from '../queued-event';
import { readPurchase } from './purchase';

/**
 * What a payment was, as Amplitude's revenueType groups it: a first purchase by what it bought,
 * a later one by what happened (shared/analytics/money-events.ts).
 */
export type RevenueType =
  | 'subscription'
  | 'upsell'
  | 'one_time'
  | 'renewal'
  | 'recovery'
  | 'refund'
  | 'chargeback';

function revenueTypeOf(plan: string | null, eventType: string): RevenueType {
  const role = plan !== null && isPlanId(plan) ? planById(plan).role : null;
  if (role === 'guide') return 'one_time';
  if (role === 'upsell') return 'upsell';
  if (role === 'main') return 'subscription';
  return eventType === 'upsell_purchase_completed' ? 'upsell' : 'subscription';
}

/** The revenue of one server-verified purchase, as Amplitude and the archive both record it. */
export interface VerifiedRevenue {
  /** What the first charge took, in `currency`; a later payment's signed amount. */
  price: number;
  /** ISO 4217, upper case: USD and EUR plans are never summed together. */
  currency: string;
  revenueType: RevenueType;
  /** The catalogue plan id, or null when the purchase named none. */
  productId: string | null;
}

/** A payment after the first the worker queued from the product API's lifecycle hook. */
function isMoneyEvent(message: Pick<QueuedEvent, 'source' | 'event'>): boolean {
  return message.source === 'server' && MONEY_EVENTS.has(message.event.event_type);
}

/**
 * A money event's revenue, signed: a renewal or recovery adds its amount, a refund or chargeback
 * takes it away; a cancellation or a failed renewal has none.
 */
function moneyRevenue(
  properties: QueuedEvent['event']['event_properties'],
): VerifiedRevenue | null {
  const { money_kind: kind, amount, currency } = properties;
  if (!isMoneyKind(kind) || typeof amount !== 'number' || typeof currency !== 'string') return null;
  const sign = MONEY_SIGN[kind];
  if (sign === null) return null;
  return {
    price: sign * amount,
    currency,
    revenueType: kind as RevenueType,
    productId: null,
  };
}

/**
 * The revenue an event carries: only a purchase the worker saw the product API answer for
 * (`source: server`, queued-event.ts) with a price and currency; anything else, including every
 * purchase a browser reports, carries none.
 */
export function verifiedRevenue(
  message: Pick<QueuedEvent, 'source' | 'event'>,
): VerifiedRevenue | null {
  if (isMoneyEvent(message)) return moneyRevenue(message.event.event_properties);
  if (!isVerifiedPurchase(message)) return null;
  const reading = readPurchase(message.event);
  if (!reading.ok) return null;
  const { value, currency, plan } = reading.purchase;
  return {
    price: value,
    currency,
    revenueType: revenueTypeOf(plan, message.event.event_type),
    productId: plan,
  };
}
