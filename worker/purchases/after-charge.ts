import type { Context } from 'hono';
import { type ApiCallName, PollingStartResponse } from '../../shared/api/contract';
import { describeError, logError, logLine } from '../../shared/log';
import { afterAnswer } from '../after-answer';
import { chargedCard, recordDecline, rememberChargedCard } from '../api/rate-limit-gate';
import type { AppEnv } from '../env';
import { declineOf, verifiedChargeOf } from './charge-answers';
import { recordVerifiedPurchase } from './record-purchase';

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
  request: { attempt: string; card: string | null },
  now: () => number,
): void {
  const id = c.get('requestId');
  const charge = verifiedChargeOf(call, answer.status, answer.body, c.req.param('planId') ?? null);
  if (charge && c.get('preview')) {
    // A marketer's preview (worker/funnel/preview.ts) is no visit: its purchase is neither
    // revenue nor a conversion, so it is not recorded and no ad network hears of it.
    logLine({ id, purchase: 'preview_not_recorded', sub_id: charge.subscriptionId, preview: true });
  } else if (charge) {
    afterAnswer(
      c,
      recordVerifiedPurchase(c, charge, now).then(
        (outcome) => {
          if (outcome === 'recorded') {
            logLine({ id, purchase: 'verified', sub_id: charge.subscriptionId });
          }
        },
        (error) =>
          logError('verified_purchase_failed', {
            id,
            sub_id: charge.subscriptionId,
            detail: describeError(error),
          }),
      ),
    );
  }
  const started = pollingIdStarted(call, answer);
  if (started && request.card) afterAnswer(c, rememberChargedCard(c, started, request.card));
  const pollingId = call === 'pollingResult' ? (c.req.param('pollingId') ?? null) : null;
  const decline = declineOf(call, answer.status, answer.body, {
    pollingId,
    attempt: request.attempt,
  });
  if (decline) {
    afterAnswer(
      c,
      (async () => {
        const card = pollingId ? await chargedCard(c, pollingId) : request.card;
        await recordDecline(c, decline, card);
      })(),
    );
  }
}

/** The polling id a card POST's 2xx answer names, else null. */
function pollingIdStarted(call: ApiCallName, answer: { status: number; body: unknown }) {
  if (call !== 'pollingSubscription' || answer.status < 200 || answer.status >= 300) return null;
  const started = PollingStartResponse.safeParse(answer.body);
  return started.success ? started.data.data.polling_result_id : null;
}
