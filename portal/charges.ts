import type { SubscriptionRequest } from '../shared/api/contract';
import { chargeSubscription } from './gateway';
import { PortalError } from './portal-error';
import {
  findSubscriptionByIdempotencyKey,
  insertSubscriptionStatement,
  isIdempotencyKeyTakenError,
  type StoredSubscription,
} from './store/subscriptions';
import { prefixedId } from './tokens';

export interface ChargeRequest {
  userId: string;
  planId: string;
  request: SubscriptionRequest;
  /** The client's Idempotency-Key header, when it sent one. */
  idempotencyKey: string | null;
}

export interface Charge {
  subscription: StoredSubscription;
  /** True when the key had been used before: nothing was charged this time. */
  replayed: boolean;
}

/**
 * Charges a subscription at most once per Idempotency-Key: a repeated POST (a retry after a
 * timeout, a double click) answers the first charge instead of charging the card again.
 * `alsoWrite` adds rows that must exist exactly when the subscription does (the polling result),
 * written in the same batch, so a failure leaves neither.
 */
export async function chargeOnce(
  db: D1Database,
  charge: ChargeRequest,
  alsoWrite: (subscription: StoredSubscription) => D1PreparedStatement[] = () => [],
): Promise<Charge> {
  const earlier = await earlierCharge(db, charge);
  if (earlier) return earlier;

  const outcome = chargeSubscription(charge.planId, charge.request);
  const subscription: StoredSubscription = {
    id: prefixedId('sub'),
    planId: charge.planId,
    gateway: charge.request.gateway,
    status: outcome.status,
    priceWithDiscount: outcome.priceWithDiscount,
    coupon: charge.request.coupon ?? null,
    eventId: prefixedId('evt'),
    declineCode: outcome.declineCode,
  };
  const row = {
    ...subscription,
    userId: charge.userId,
    idempotencyKey: charge.idempotencyKey,
    createdAt: new Date().toISOString(),
  };
  try {
    await db.batch([insertSubscriptionStatement(db, row), ...alsoWrite(subscription)]);
  } catch (error) {
    // A concurrent request with the same key won the insert: answer its charge.
    const winner = isIdempotencyKeyTakenError(error) ? await earlierCharge(db, charge) : null;
    if (winner) return winner;
    throw error;
  }
  return { subscription, replayed: false };
}

async function earlierCharge(db: D1Database, charge: ChargeRequest): Promise<Charge | null> {
  if (charge.idempotencyKey === null) return null;
  const subscription = await findSubscriptionByIdempotencyKey(
    db,
    charge.userId,
    charge.idempotencyKey,
  );
  if (!subscription) return null;
  if (subscription.planId !== charge.planId) throw idempotencyConflict();
  return { subscription, replayed: true };
}

/** A key reused for a different request is the client's bug; charging either way would be wrong. */
export function idempotencyConflict(): PortalError {
  return new PortalError(
    422,
    'idempotency_conflict',
    'The Idempotency-Key was already used for another request.',
  );
}

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** The Idempotency-Key header as Stripe accepts it (printable, at most 255 characters), or null. */
export function readIdempotencyKey(header: string | undefined): string | null {
  const key = header?.trim();
  if (!key) return null;
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE_ASCII.test(key)) {
    throw new PortalError(
      400,
      'invalid_body',
      'The Idempotency-Key header must be 1 to 255 printable characters.',
    );
  }
  return key;
}
