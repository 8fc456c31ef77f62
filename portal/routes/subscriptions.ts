import { type Context, Hono } from 'hono';
import { ATTEMPT_CLOSE_CALL, type AttemptCloseResponse } from '../../shared/api/attempt-close';
import {
  type DirectSubscriptionResponse,
  PlanIdPathParam,
  type PollingStartResponse,
  SubscriptionRequest,
} from '../../shared/api/contract';
import { isPlanId } from '../../shared/plans/catalogue';
import { requireBearer, type SignedInEnv } from '../auth';
import { directAnswerOf, pollingResultOf } from '../charge-answers';
import {
  type ChargeRequest,
  chargeOnce,
  idempotencyConflict,
  idempotencyKeyOrRefuse,
} from '../charges';
import type { PortalBindings } from '../env';
import { emulatedFault, withProviderFault } from '../faults';
import { validJsonBody } from '../json-body';
import { PortalError } from '../portal-error';
import { closeAttempt } from '../store/closed-attempts';
import {
  findPollingIdBySubscription,
  insertPollingResultStatement,
} from '../store/polling-results';
import { prefixedId } from '../tokens';

/** How long a charge's polling result answers 202 unless PORTAL_POLLING_DELAY_MS says otherwise. */
const DEFAULT_POLLING_DELAY_MS = 1000;

/**
 * The subscription charges of SPEC.md §7: the card gateway's, answered by a polling id (see
 * routes/polling-result.ts), and the alternate gateway's, answered at once. What a charge does
 * is portal/gateway.ts's to decide; portal/charges.ts makes sure it happens once.
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
      const charged = await withProviderFault(db, charge.request.payment_provider ?? 'stripe', () =>
        chargeOnce(db, charge, 'payment_intent', (decided) => [
          insertPollingResultStatement(db, {
            id: pollingId,
            userId: charge.userId,
            planId: charge.planId,
            subscriptionId: decided.subscription.id,
            result: pollingResultOf(decided),
            readyAt,
            createdAt: new Date(now).toISOString(),
          }),
        ]),
      );
      // A replayed key names the first charge's polling result; a key first used on the direct
      // route has none, and that is a different request.
      const id = charged.replayedKey
        ? await findPollingIdBySubscription(db, charged.subscription.id)
        : pollingId;
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
      const db = c.env.PORTAL_DB;
      const charged = await withProviderFault(
        db,
        charge.request.payment_provider ?? 'braintree',
        () => chargeOnce(db, charge, 'verified_nonce'),
      );
      const answer: DirectSubscriptionResponse = directAnswerOf(charged, charge.userId);
      return c.json(answer);
    },
  )
  /**
   * POST /users/me/subscriptions/attempts/close (ours, shared/api/attempt-close.ts): closes the
   * attempt named by the Idempotency-Key unless a charge was made under it. Answered from the
   * emulator's own rows, never through a provider's fake, so a provider's fault switch leaves
   * it working, as a product API's records outlive its provider's outage.
   */
  .post(ATTEMPT_CLOSE_CALL.path, emulatedFault('attempts-close'), requireBearer(), async (c) => {
    const key = idempotencyKeyOrRefuse(c.req.header('idempotency-key'));
    if (key === null) {
      throw new PortalError(400, 'invalid_body', 'Name the attempt by its Idempotency-Key.');
    }
    const closed = await closeAttempt(c.env.PORTAL_DB, c.var.userId, key, new Date().toISOString());
    const answer: AttemptCloseResponse = { data: { closed } };
    return c.json(answer);
  });

/** The plan, the client's Idempotency-Key and the checked body of a subscription call. */
async function readChargeRequest(c: Context<SignedInEnv>): Promise<ChargeRequest> {
  const planId = c.req.param('planId') ?? '';
  // Only a plan of the catalogue can be priced, so any other id is refused before a charge.
  if (!PlanIdPathParam.safeParse(planId).success || !isPlanId(planId)) {
    throw new PortalError(404, 'not_found', 'This plan is not known.');
  }
  const idempotencyKey = idempotencyKeyOrRefuse(c.req.header('idempotency-key'));
  const request = await validJsonBody(c, SubscriptionRequest);
  return { userId: c.var.userId, planId, request, idempotencyKey };
}

function pollingDelayMs(env: PortalBindings): number {
  const configured = Number(env.PORTAL_POLLING_DELAY_MS);
  return env.PORTAL_POLLING_DELAY_MS && Number.isFinite(configured) && configured >= 0
    ? configured
    : DEFAULT_POLLING_DELAY_MS;
}
