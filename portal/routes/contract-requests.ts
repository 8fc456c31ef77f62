import { Hono } from 'hono';
import {
  CONTRACT_CALLS,
  type ContractAnswer,
  type ContractOutcome,
} from '../../shared/api/contract-calls';
import { withinWithdrawalPeriod } from '../../shared/plans/withdrawal';
import { requiredIdempotencyKey } from '../charges';
import { validJsonBody } from '../json-body';
import {
  type ContractRequestRow,
  findContractRequest,
  keepContractRequest,
} from '../store/contract-requests';
import {
  cancelSubscription,
  findSubscriptionOfEmail,
  refundSubscription,
  type SubscriberRow,
} from '../store/subscriber-actions';
import { prefixedId } from '../tokens';
import {
  firstChargeRefundOf,
  requireWorkerSignature,
  type SubscriberEnv,
  sendLifecycleEvent,
  statusOf,
} from './subscriber';

function answerOf(row: ContractRequestRow): ContractAnswer {
  return {
    data: {
      request_id: row.id,
      received_at: row.receivedAt,
      outcome: row.outcome,
      subscription_id: row.subscriptionId,
    },
  };
}

/**
 * POST /contract-requests (shared/api/contract-calls.ts), as the product API answers it: the
 * declaration kept whether or not it matched (the consumer bears the proof that it was sent in
 * time), once per Idempotency-Key, a repeat answering what the first came to. Where the email and
 * the reference name one of that account's subscriptions: a withdrawal within its period
 * (shared/plans/withdrawal.ts) refunds the first charge and ends it, as the guarantee's claim
 * does (`refund` then `cancellation` lifecycle events); a cancellation, or a withdrawal after its
 * period, stops its renewals (`cancellation`); one already ended stays as it is. The emulator
 * sends no acknowledgement email: it records one (`acknowledgement`), as it records reminders.
 */
export const contractRequestRoutes = new Hono<SubscriberEnv>()
  .use(CONTRACT_CALLS.contractRequest.path, requireWorkerSignature())
  .post(CONTRACT_CALLS.contractRequest.path, async (c) => {
    const key = requiredIdempotencyKey(c.req.header('idempotency-key'));
    const request = await validJsonBody(c, CONTRACT_CALLS.contractRequest.request);
    const db = c.env.PORTAL_DB;
    const kept = await findContractRequest(db, key);
    if (kept) return c.json(answerOf(kept));
    const matched = await findSubscriptionOfEmail(db, request.reference, request.email);
    const receivedAt = new Date().toISOString();
    const outcome = matched ? await endContract(c, matched, request.kind, receivedAt) : null;
    const row: ContractRequestRow = {
      id: prefixedId('ctr'),
      receivedAt,
      outcome: outcome ?? 'not_matched',
      subscriptionId: matched?.id ?? null,
    };
    // Two posts of one key at once: the one kept first is the answer.
    if (!(await keepContractRequest(db, key, request, row))) {
      const first = await findContractRequest(db, key);
      if (first) return c.json(answerOf(first));
    }
    return c.json(answerOf(row));
  });

/** Ends `row` as the declaration asks, and says how it ended. */
async function endContract(
  c: Parameters<typeof sendLifecycleEvent>[0],
  row: SubscriberRow,
  kind: 'withdrawal' | 'cancellation',
  at: string,
): Promise<ContractOutcome> {
  const db = c.env.PORTAL_DB;
  const status = statusOf(row);
  if (status === 'refunded') return 'withdrawn';
  if (kind === 'withdrawal' && withinWithdrawalPeriod(row.createdAt, Date.parse(at))) {
    const refund = firstChargeRefundOf(row, at);
    if (refund && (await refundSubscription(db, row.id, refund))) {
      await sendLifecycleEvent(c, row, 'refund', refund);
      if (row.canceledAt === null) await sendLifecycleEvent(c, row, 'cancellation');
      return 'withdrawn';
    }
  }
  if (await cancelSubscription(db, row.id, at)) await sendLifecycleEvent(c, row, 'cancellation');
  return 'canceled';
}
