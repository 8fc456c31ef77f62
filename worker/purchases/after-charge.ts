import type { Context } from 'hono';
import { type ApiCallName, PollingStartResponse } from '../../shared/api/contract';
import { describeError, logError, logLine, logWarning } from '../../shared/log';
import { afterAnswer } from '../after-answer';
import { recordDecline } from '../api/rate-limit-gate';
import type { AppEnv } from '../env';
import { completeFromCatalogue, type FilledField, type Ordered } from './catalogue-charge';
import { declineOf, type VerifiedCharge, verifiedChargeOf } from './charge-answers';
import { recallPollingCharge, rememberPollingCharge } from './polling-charge';
import { recordVerifiedPurchase } from './record-purchase';

/** What the browser's charge request was: its attempt, card fingerprint, plan and coupon. */
export interface ChargeRequest {
  attempt: string;
  card: string | null;
  planId: string | null;
  coupon: string | null;
}

/**
 * What the worker learns from a charge answer it relays, acted on after the answer is sent (off
 * the visitor's path; a failure is an error line, and the next poll of the result tries again):
 * a final success becomes the server-verified purchase (not on a marketer's preview), a decline
 * counts toward the card-testing limits, against the card a polling id was started with.
 */
export function afterChargeAnswer(
  c: Context<AppEnv>,
  call: ApiCallName,
  answer: { status: number; body: unknown },
  request: ChargeRequest,
  now: () => number,
): void {
  const id = c.get('requestId');
  const pollingId = call === 'pollingResult' ? (c.req.param('pollingId') ?? null) : null;
  const answered = verifiedChargeOf(call, answer.status, answer.body);
  if (answered && c.get('preview')) {
    // A marketer's preview (worker/funnel/preview.ts) is no visit: its purchase is neither
    // revenue nor a conversion, so it is not recorded and no ad network hears of it.
    logLine({
      id,
      purchase: 'preview_not_recorded',
      sub_id: answered.subscriptionId,
      preview: true,
    });
  } else if (answered) {
    afterAnswer(
      c,
      (async () => {
        const ordered: Ordered | null =
          call === 'directSubscription'
            ? request
            : pollingId
              ? await orderedFor(c, answered, pollingId)
              : null;
        const { charge, filled } = completeFromCatalogue(answered, ordered);
        const outcome = await recordVerifiedPurchase(c, charge, now);
        if (outcome !== 'recorded') return;
        logLine({ id, purchase: 'verified', sub_id: charge.subscriptionId });
        logCatalogueFill(id, call, filled);
      })().catch((error) =>
        logError('verified_purchase_failed', {
          id,
          sub_id: answered.subscriptionId,
          detail: describeError(error),
        }),
      ),
    );
  }
  const started = pollingIdStarted(call, answer);
  if (started) {
    afterAnswer(
      c,
      rememberPollingCharge(c, started, {
        card: request.card,
        planId: request.planId,
        coupon: request.coupon,
      }),
    );
  }
  const decline = declineOf(call, answer.status, answer.body, {
    pollingId,
    attempt: request.attempt,
  });
  if (decline) {
    afterAnswer(
      c,
      (async () => {
        const card = pollingId
          ? ((await recallPollingCharge(c, pollingId))?.card ?? null)
          : request.card;
        await recordDecline(c, decline, card);
      })(),
    );
  }
}

/** What the polling id's POST asked for, read only when the answer left something out. */
async function orderedFor(
  c: Context<AppEnv>,
  charge: VerifiedCharge,
  pollingId: string,
): Promise<Ordered | null> {
  if (charge.amount !== null && charge.currency !== null && charge.planId !== null) return null;
  return recallPollingCharge(c, pollingId);
}

/** The fields of the answer JSON a charge's fields come from, for the `portal_shape` warning. */
const CHARGE_FIELDS_AT: Partial<Record<ApiCallName, string>> = {
  pollingResult: 'data.result_data',
  directSubscription: 'data',
};

/**
 * One `portal_shape` warning per charge field the answer left out and the catalogue filled, as the
 * lenient contract writes them (worker/api/call-handler.ts), once per recorded purchase however
 * often it is polled: ops see that the product API does not say what it charged, while the
 * purchase still reaches the networks.
 */
function logCatalogueFill(id: string, call: ApiCallName, filled: readonly FilledField[]): void {
  for (const field of filled) {
    logWarning('portal_shape', {
      id,
      call,
      field: `${CHARGE_FIELDS_AT[call]}.${field}`,
      found: 'missing',
      used: 'catalogue',
    });
  }
}

/** The polling id a card POST's 2xx answer names, else null. */
function pollingIdStarted(call: ApiCallName, answer: { status: number; body: unknown }) {
  if (call !== 'pollingSubscription' || answer.status < 200 || answer.status >= 300) return null;
  const started = PollingStartResponse.safeParse(answer.body);
  return started.success ? started.data.data.polling_result_id : null;
}
