import { cardNetworkOf } from '../../shared/card-network';
import { describeError, logError } from '../../shared/log';
import type { Bindings } from '../env';
import { governorCardKey } from '../purchase-ledger/ledger';
import { durableCardAttempts } from '../retry-governor/card-attempts';
import type { SubscriptionEvent } from './apply';

/**
 * A renewal's charge, paid or declined, as the retry governor counts it (docs/payments.md "The
 * retry governor"): the product API charges renewals on its own schedule, merchant-initiated,
 * and the networks count those attempts on the card beside the customer's own, so the worker's
 * next charge of the card (a recovery link's Pay, the subscriber typing it again) meets the
 * networks' rules with them counted. Visa counts them apart (its merchant-initiated counter),
 * Mastercard together; a category 1 code or advice 03/21 on a renewal stops the card.
 *
 * The card is the one the event names by fingerprint, else the subscription's one key for
 * unknown cards. Counted once per event id (a replayed event adds nothing). A store out of reach
 * is logged and leaves the event recorded: the renewal has happened whatever the governor keeps.
 */
export async function countRenewalAttempt(
  env: Pick<Bindings, 'CARD_ATTEMPTS'>,
  event: SubscriptionEvent,
  requestId: string,
): Promise<void> {
  if (event.kind !== 'renewal' && event.kind !== 'renewal_failed') return;
  const card = event.charged ?? null;
  const key = await governorCardKey(
    `subscription:${event.subscriptionId}`,
    card?.fingerprint ?? null,
  );
  const outcome =
    event.kind === 'renewal'
      ? ({ result: 'approved' } as const)
      : ({
          result: 'declined',
          responseCode: card?.responseCode ?? null,
          adviceCode: card?.adviceCode ?? null,
        } as const);
  try {
    await durableCardAttempts(env.CARD_ATTEMPTS).record(key, `renewal:${event.eventId}`, {
      at: event.at,
      network: cardNetworkOf(card?.brand),
      initiator: 'merchant',
      provider: 'product_api',
      outcome,
    });
  } catch (error) {
    logError('renewal_attempt_not_counted', {
      id: requestId,
      event_id: event.eventId,
      detail: describeError(error),
    });
  }
}
