import { isPlanId, planById } from '../../../shared/plans/catalogue';
import { isVerifiedPurchase, type QueuedEvent } from '../queued-event';
import { readPurchase } from './purchase';

/** What a purchase bought, as Amplitude's revenueType groups it. */
export type RevenueType = 'subscription' | 'upsell' | 'one_time';

function revenueTypeOf(plan: string | null, eventType: string): RevenueType {
  const role = plan !== null && isPlanId(plan) ? planById(plan).role : null;
  if (role === 'guide') return 'one_time';
  if (role === 'upsell') return 'upsell';
  if (role === 'main') return 'subscription';
  return eventType === 'upsell_purchase_completed' ? 'upsell' : 'subscription';
}

/** The revenue of one server-verified purchase, as Amplitude and the archive both record it. */
export interface VerifiedRevenue {
  /** What the first charge took, in `currency`. */
  price: number;
  /** ISO 4217, upper case: USD and EUR plans are never summed together. */
  currency: string;
  revenueType: RevenueType;
  /** The catalogue plan id, or null when the purchase named none. */
  productId: string | null;
}

/**
 * The revenue an event carries: only a purchase the worker saw the product API answer for
 * (`source: server`, queued-event.ts) with a price and currency; anything else, including every
 * purchase a browser reports, carries none.
 */
export function verifiedRevenue(
  message: Pick<QueuedEvent, 'source' | 'event'>,
): VerifiedRevenue | null {
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
