import { type Context, Hono } from 'hono';
import type { z } from 'zod';
import {
  type DirectSubscriptionResponse,
  PlanIdPathParam,
  type PollingResultData,
  type PollingStartResponse,
  SubscriptionRequest,
} from '../../shared/api/contract';
import { requireBearer, type SignedInEnv } from '../auth';
import {
  type ChargeRequest,
  chargeOnce,
  idempotencyConflict,
  readIdempotencyKey,
} from '../charges';
import type { PortalBindings } from '../env';
import { emulatedFault } from '../faults';
import { readJsonBody } from '../json-body';
import { PortalError } from '../portal-error';
import {
  findPollingIdBySubscription,
  insertPollingResultStatement,
} from '../store/polling-results';
import type { StoredSubscription } from '../store/subscriptions';
import { prefixedId } from '../tokens';

/** How long a charge's polling result answers 202 unless PORTAL_POLLING_DELAY_MS says otherwise. */
const DEFAULT_POLLING_DELAY_MS = 1000;

/**
 * The subscription charges of SPEC.md §7: the card gateway's, answered by a polling id (see
 * routes/polling-result.ts), and the alternate gateway's, answered at once. What a charge does
 * is portal/gateway.ts's to decide.
 */
export const subscriptionRoutes = new Hono<SignedInEnv>()
  /** POST /users/me/subscriptions/polling/{planId}: starts a charge, answers where to poll. */
  .post(
    '/users/me/subscriptions/polling/:planId',
    emulatedFault('subscriptions-polling'),
    requireBearer(),
    async (c) => {
      const charge = await readChargeRequest(c);
      const db = c.env.PORTAL_DB;
      const pollingId = prefixedId('poll');
      const now = Date.now();
      const readyAt = new Date(now + pollingDelayMs(c.env)).toISOString();
      const { subscription, replayed } = await chargeOnce(db, charge, (stored) => [
        insertPollingResultStatement(db, {
          id: pollingId,
          userId: charge.userId,
          planId: charge.planId,
          subscriptionId: stored.id,
          result: pollingResultOf(stored),
          readyAt,
          createdAt: new Date(now).toISOString(),
        }),
      ]);
      // A replayed key names the first charge's polling result; a key first used on the direct
      // route has none, and that is a different request.
      const id = replayed ? await findPollingIdBySubscription(db, subscription.id) : pollingId;
      if (id === null) throw idempotencyConflict();
      const answer: PollingStartResponse = { data: { polling_result_id: id } };
      return c.json(answer);
    },
  )
  /** POST /users/me/subscriptions/{planId}: the alternate gateway's charge, answered at once. */
  .post(
    '/users/me/subscriptions/:planId',
    emulatedFault('subscriptions'),
    requireBearer(),
    async (c) => {
      const charge = await readChargeRequest(c);
      const { subscription } = await chargeOnce(c.env.PORTAL_DB, charge);
      const answer: DirectSubscriptionResponse = {
        data: {
          customer_id: `cus_${charge.userId}`,
          subscription_id: subscription.id,
          event_id: subscription.eventId,
          price_with_discount: subscription.priceWithDiscount,
        },
      };
      return c.json(answer);
    },
  );

/** The plan, the client's Idempotency-Key and the checked body of a subscription call. */
async function readChargeRequest(c: Context<SignedInEnv>): Promise<ChargeRequest> {
  const planId = c.req.param('planId') ?? '';
  if (!PlanIdPathParam.safeParse(planId).success) {
    throw new PortalError(404, 'not_found', 'This plan is not known.');
  }
  const idempotencyKey = readIdempotencyKey(c.req.header('idempotency-key'));
  const request = await readJsonBody(c, SubscriptionRequest);
  return { userId: c.var.userId, planId, request, idempotencyKey };
}

/** What GET /polling/get-result answers as `data.result_data` once the charge is final. */
function pollingResultOf(subscription: StoredSubscription): z.infer<typeof PollingResultData> {
  return {
    status: subscription.status,
    subscription_id: subscription.id,
    event_id: subscription.eventId,
    price_with_discount: subscription.priceWithDiscount,
  };
}

function pollingDelayMs(env: PortalBindings): number {
  const configured = Number(env.PORTAL_POLLING_DELAY_MS);
  return env.PORTAL_POLLING_DELAY_MS && Number.isFinite(configured) && configured >= 0
    ? configured
    : DEFAULT_POLLING_DELAY_MS;
}
