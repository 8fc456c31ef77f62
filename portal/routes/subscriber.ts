import { type Context, Hono, type MiddlewareHandler } from 'hono';
import {
  isFresh,
  matchingSignature,
  readSignatureHeader,
  signatureHeaderFor,
} from '../../shared/api/hook-signature';
import {
  LIFECYCLE_PATH,
  LIFECYCLE_SIGNATURE_HEADER,
  type LifecycleEventType,
} from '../../shared/api/lifecycle';
import {
  SUBSCRIBER_CALLS,
  type SubscriberActionAnswer,
  type SubscriptionAddOn,
  type SubscriptionAnswer,
  subscriberCallText,
} from '../../shared/api/subscriber-calls';
import { logError } from '../../shared/log';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { guaranteeApplies } from '../../shared/plans/guarantee';
import { toMajorUnits, toMinorUnits } from '../../shared/plans/money';
import { updateCard } from '../card-update';
import { idempotencyKeyOrRefuse, requiredIdempotencyKey } from '../charges';
import type { PortalBindings } from '../env';
import { validJsonBody } from '../json-body';
import { lifecycleEventOf } from '../lifecycle-event';
import { payDue } from '../pay-due';
import { PortalError } from '../portal-error';
import { renewsAfterPause } from '../renewal-terms';
import { renewalTermsFor, scheduledRenewalAt, takeSaveOffer } from '../save-offers';
import { findAddOns } from '../store/add-ons';
import { findRenewalDue } from '../store/renewal-dues';
import {
  cancelSubscription,
  findChargedSubscription,
  refundSubscription,
  type SubscriberRow,
} from '../store/subscriber-actions';
import type { SubscriptionPayment } from '../store/subscription-payments';
import { findTestPaymentMethod } from '../store/test-payment-methods';
import { prefixedId } from '../tokens';

export type SubscriberEnv = { Bindings: PortalBindings };

/**
 * Only the worker may ask (shared/api/subscriber-calls.ts): its `Geofunnel-Signature` over the
 * method, path and body under LIFECYCLE_HMAC_KEY, made within 5 minutes. Anything else answers
 * 401, before any row is read.
 */
export function requireWorkerSignature(): MiddlewareHandler<SubscriberEnv> {
  return async function workerSignature(c, next) {
    const secret = c.env.LIFECYCLE_HMAC_KEY;
    const header = readSignatureHeader(c.req.header(LIFECYCLE_SIGNATURE_HEADER) ?? '');
    const body = c.req.method === 'GET' ? '' : await c.req.text();
    const signed = subscriberCallText(c.req.method, new URL(c.req.url).pathname, body);
    const valid =
      secret !== undefined &&
      header.ok &&
      isFresh(header.header.timestamp, Date.now()) &&
      (await matchingSignature(secret, header.header, signed)) !== null;
    if (!valid) throw new PortalError(401, 'bad_signature', 'Unauthenticated.');
    await next();
  };
}

async function chargedOr404(c: Context<SubscriberEnv>): Promise<SubscriberRow> {
  const row = await findChargedSubscription(c.env.PORTAL_DB, c.req.param('subscriptionId') ?? '');
  if (!row) throw new PortalError(404, 'not_found', 'This subscription is not known.');
  return row;
}

export function statusOf(row: SubscriberRow): 'active' | 'canceled' | 'refunded' {
  if (row.refundedAt !== null) return 'refunded';
  return row.canceledAt !== null ? 'canceled' : 'active';
}

/** A subscription as the read answers it, but for the add-ons it lists. */
type SubscriptionData = Omit<SubscriptionAnswer['data'], 'add_ons'>;

/**
 * The subscription as the product API answers it: the plan's terms from the catalogue, after
 * the save offers it took (portal/renewal-terms.ts: a switch's plan, a discount's price, a
 * pause's later renewal).
 */
async function subscriptionDataOf(db: D1Database, row: SubscriberRow): Promise<SubscriptionData> {
  const status = statusOf(row);
  const due = await findRenewalDue(db, row.id);
  const terms = await renewalTermsFor(db, row);
  // A canceled one ends where its paid period does, at the scheduled renewal: a pause moves
  // only the next renewal.
  const scheduled = scheduledRenewalAt(row, due);
  const renewsAt = renewsAfterPause(scheduled, terms.pausedUntil);
  const { plan, amount: renewal } = terms;
  const card = row.paymentMethod ? await findTestPaymentMethod(db, row.paymentMethod) : null;
  const amountDue = due && due.paidAt === null && status === 'active' ? due.amount : null;
  return {
    subscription_id: row.id,
    status,
    plan_id: terms.planId,
    currency: plan?.currency ?? null,
    paid_amount: row.priceWithDiscount,
    charged_at: row.createdAt,
    renewal_amount:
      status === 'active' && plan && renewal !== null ? toMajorUnits(renewal, plan.currency) : null,
    // Nothing renews while a failed renewal is due: the due is this period's renewal.
    renews_at:
      status === 'active' && amountDue === null && renewsAt !== null
        ? new Date(renewsAt).toISOString()
        : null,
    ends_at: status === 'active' || scheduled === null ? null : new Date(scheduled).toISOString(),
    card_brand: card?.brand ?? null,
    card_last4: card?.last4 ?? null,
    wallet: null,
    amount_due: amountDue,
    // The failure's time names it: a later failure replaces the row, and is another due.
    due_id: amountDue !== null && due ? `due_${Date.parse(due.failedAt).toString(36)}` : null,
    // The embedded portal's card provider is its test gateway (portal/gateway.ts).
    payment_gateway: 'test',
    stripe_publishable_key: null,
    braintree_client_token: null,
  };
}

/** An add-on as the read lists it: its own terms, without its card or dues. */
function addOnOf(data: SubscriptionData): SubscriptionAddOn {
  return {
    subscription_id: data.subscription_id,
    plan_id: data.plan_id,
    status: data.status,
    currency: data.currency,
    paid_amount: data.paid_amount,
    charged_at: data.charged_at,
    renewal_amount: data.renewal_amount,
    renews_at: data.renews_at,
    ends_at: data.ends_at,
  };
}

/**
 * The read's answer: the subscription, and the renewing add-ons its buyer took beside it
 * (portal/store/add-ons.ts), each with its own terms, as the page lists them under the plan.
 */
async function subscriptionAnswerOf(
  db: D1Database,
  row: SubscriberRow,
): Promise<SubscriptionAnswer> {
  const addOnRows = await findAddOns(db, row);
  const addOns = await Promise.all(addOnRows.map((addOn) => subscriptionDataOf(db, addOn)));
  return { data: { ...(await subscriptionDataOf(db, row)), add_ons: addOns.map(addOnOf) } };
}

/**
 * Posts `body` to the funnel that asked (`x-funnel-origin`) at `path`, signed as the product
 * API's hooks are (`Geofunnel-Signature` over `<t>.<body>` under LIFECYCLE_HMAC_KEY), in-process
 * when the development kit hands the app in (PORTAL_HOOK_FETCH). Null when there is no secret or
 * no funnel to post to; a network failure throws.
 */
export async function postToWorker(
  c: Context<SubscriberEnv>,
  path: string,
  body: string,
): Promise<Response | null> {
  const secret = c.env.LIFECYCLE_HMAC_KEY;
  const origin = c.req.header('x-funnel-origin');
  if (!secret || !origin) return null;
  const request = new Request(`${origin}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [LIFECYCLE_SIGNATURE_HEADER]: await signatureHeaderFor(
        secret,
        Math.floor(Date.now() / 1000),
        body,
      ),
    },
    body,
  });
  const send = c.env.PORTAL_HOOK_FETCH ?? fetch;
  return send(request);
}

/**
 * Tells the worker what happened, as the product API's lifecycle hook does
 * (`npm run portal -- cancel`, docs/product-api.md), through postToWorker. A failure is logged;
 * the action stands, as the product API would retry its delivery.
 */
export async function sendLifecycleEvent(
  c: Context<SubscriberEnv>,
  row: SubscriberRow,
  type: LifecycleEventType,
  payment: SubscriptionPayment | null = null,
): Promise<void> {
  // A payment's event carries its row's id, amount, try and card: the archive and this table
  // then name the same payment alike.
  const built = lifecycleEventOf({ ...row, status: 'active' }, type, {
    id: payment?.id ?? prefixedId('evt'),
    amount: payment?.amountMinor ?? null,
    occurredAt: payment?.occurredAt ?? new Date().toISOString(),
    attempt: payment?.attempt ?? null,
    cardBrand: payment?.cardBrand ?? null,
  });
  if (!built.ok) return;
  try {
    const answer = await postToWorker(c, LIFECYCLE_PATH, JSON.stringify(built.body));
    if (answer && !answer.ok) logError('portal_lifecycle_refused', { type, status: answer.status });
  } catch (error) {
    logError('portal_lifecycle_unsent', { type, detail: String(error) });
  }
}

/**
 * The money-back guarantee's refund, and a withdrawal's (shared/plans/withdrawal.ts): the first
 * charge, in full. Null for a plan outside the catalogue (no currency to give it back in), which
 * neither covers.
 */
export function firstChargeRefundOf(row: SubscriberRow, at: string): SubscriptionPayment | null {
  const plan = isPlanId(row.planId) ? planById(row.planId) : null;
  if (!plan || row.priceWithDiscount === null) return null;
  return {
    id: prefixedId('evt'),
    subscriptionId: row.id,
    kind: 'refund',
    amountMinor: toMinorUnits(row.priceWithDiscount, plan.currency),
    currency: plan.currency,
    attempt: null,
    cardBrand: null,
    occurredAt: at,
  };
}

function actionAnswer(row: SubscriberRow, answer: SubscriptionData): SubscriberActionAnswer {
  const refunded = statusOf(row) === 'refunded';
  const plan = isPlanId(row.planId) ? planById(row.planId) : null;
  return {
    data: {
      status: answer.status,
      ends_at: refunded ? row.refundedAt : answer.ends_at,
      refunded_amount: refunded ? row.priceWithDiscount : null,
      currency: refunded ? (plan?.currency ?? null) : null,
    },
  };
}

/**
 * The subscriber's page's calls (shared/api/subscriber-calls.ts), as the product API answers
 * them: read (with the buyer's renewing add-ons, each its own subscription the same calls cancel
 * and refund), cancel (nothing renews; idempotent, a second cancel answers the same), and claim
 * the money-back guarantee (shared/plans/guarantee.ts: the first charge back and the
 * subscription ended, once; outside its terms 422 `guarantee_not_applicable`), pay what is due
 * (portal/pay-due.ts), update the card (portal/card-update.ts, no charge, no event) and take a
 * save offer instead of cancelling (portal/save-offers.ts: a discount, a pause or a cheaper plan,
 * one a subscription in 12 months; no event, as nothing is charged or ended). Each change of the
 * subscription's term sends its lifecycle event to the worker: `cancellation`, or `refund` then
 * `cancellation`, or a paid due's `renewal`.
 */
export const subscriberRoutes = new Hono<SubscriberEnv>()
  .use('/subscriptions/*', requireWorkerSignature())
  .get(SUBSCRIBER_CALLS.subscriptionRead.path, async (c) => {
    const row = await chargedOr404(c);
    return c.json(await subscriptionAnswerOf(c.env.PORTAL_DB, row));
  })
  .post(SUBSCRIBER_CALLS.subscriptionCancel.path, async (c) => {
    await validJsonBody(c, SUBSCRIBER_CALLS.subscriptionCancel.request);
    const row = await chargedOr404(c);
    const now = new Date().toISOString();
    if (await cancelSubscription(c.env.PORTAL_DB, row.id, now)) {
      await sendLifecycleEvent(c, row, 'cancellation');
    }
    const after = await chargedOr404(c);
    return c.json(actionAnswer(after, await subscriptionDataOf(c.env.PORTAL_DB, after)));
  })
  .post(SUBSCRIBER_CALLS.guaranteeClaim.path, async (c) => {
    await validJsonBody(c, SUBSCRIBER_CALLS.guaranteeClaim.request);
    const row = await chargedOr404(c);
    const subject = {
      status: statusOf(row),
      chargedAt: row.createdAt,
      paidAmount: row.priceWithDiscount,
    };
    if (!guaranteeApplies(subject, Date.now())) {
      throw new PortalError(
        422,
        'guarantee_not_applicable',
        'The money-back guarantee does not apply to this subscription.',
      );
    }
    const refund = firstChargeRefundOf(row, new Date().toISOString());
    if (refund && (await refundSubscription(c.env.PORTAL_DB, row.id, refund))) {
      await sendLifecycleEvent(c, row, 'refund', refund);
      if (row.canceledAt === null) await sendLifecycleEvent(c, row, 'cancellation');
    }
    const after = await chargedOr404(c);
    return c.json(actionAnswer(after, await subscriptionDataOf(c.env.PORTAL_DB, after)));
  })
  .post(SUBSCRIBER_CALLS.payDue.path, async (c) => {
    const key = idempotencyKeyOrRefuse(c.req.header('idempotency-key'));
    const request = await validJsonBody(c, SUBSCRIBER_CALLS.payDue.request);
    const row = await chargedOr404(c);
    if (statusOf(row) !== 'active') {
      throw new PortalError(409, 'nothing_due', 'This subscription has ended: nothing is due.');
    }
    const outcome = await payDue(c.env.PORTAL_DB, row, request, key);
    if (outcome.kind === 'paid') await sendLifecycleEvent(c, row, 'renewal', outcome.payment);
    return c.json(outcome.answer);
  })
  .post(SUBSCRIBER_CALLS.cardUpdate.path, async (c) => {
    const key = idempotencyKeyOrRefuse(c.req.header('idempotency-key'));
    const request = await validJsonBody(c, SUBSCRIBER_CALLS.cardUpdate.request);
    const row = await chargedOr404(c);
    const ended = statusOf(row) !== 'active';
    return c.json(await updateCard(c.env.PORTAL_DB, { ...row, ended }, request, key));
  })
  .post(SUBSCRIBER_CALLS.saveOfferTake.path, async (c) => {
    const key = requiredIdempotencyKey(c.req.header('idempotency-key'));
    const request = await validJsonBody(c, SUBSCRIBER_CALLS.saveOfferTake.request);
    const row = await chargedOr404(c);
    return c.json(await takeSaveOffer(c.env.PORTAL_DB, row, request, key));
  });
