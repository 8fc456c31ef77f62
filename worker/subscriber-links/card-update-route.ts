import { moneyOf } from '../../screens/subscriber/subscription-rows';
import { logLine, logWarning } from '../../shared/log';
import {
  answer,
  type CardPostDeps,
  cardLabelOf,
  paymentOf,
  refusalAnswer,
  stepRefusalAnswer,
} from './pay-due-route';
import { chargeFromLink, type SubscriberCardPost } from './subscriber-charge';

/**
 * `POST /subscription/<manage token>/card` (docs/payments.md, "Update the card"): the manage
 * page's script sends the card its provider made (`{gateway, payment_method_nonce}`, then
 * `payment_intent_id` after a 3-D Secure challenge) and the worker asks the product API to make
 * it the subscription's card (shared/api/subscriber-calls.ts `cardUpdate`), charging nothing.
 * Answers `{status: 'updated', card, due}` (`due`: what is still due, which the page offers to
 * pay at once with the new card, else null), `{status: 'requires_action', payment_intent_secret}`, 402
 * `{status: 'declined', decline_code, decline_class}` (the old card stays), 409 `{error:
 * 'subscription_ended'}` once the subscription was canceled, or 501 `{error: 'not_available'}`
 * from a product API without the call (logged as `portal_call_missing`). The link stays open: a
 * subscriber may come back to cancel. It was checked before (signature, date, not done, rate
 * limit, same origin): a forged or replayed link never reaches the product API.
 */
export async function cardUpdateAnswer(
  post: SubscriberCardPost,
  deps: CardPostDeps,
): Promise<Response> {
  const { facts, link } = post;
  if (link.purpose !== 'manage') return answer({ error: 'invalid' }, 400);
  const card = await paymentOf(post.request);
  if (card === null) return answer({ error: 'invalid_request' }, 400);
  const charged = await chargeFromLink(
    post,
    {
      way: 'card_update',
      payment: card,
      fingerprint: deps.fingerprint,
      now: deps.now,
      watch: deps.watch,
    },
    (key) => deps.portal.updateCard(card, key),
    async (updated) => {
      if (updated.status === 'updated') {
        logLine({ id: facts.requestId, event: 'subscriber_card_updated', link: link.linkId });
      }
    },
  );
  if ('refused' in charged) return stepRefusalAnswer(facts, charged.refused);
  const result = charged.result;
  if (!result.ok) {
    // The page read the subscription a moment ago: a 404 here is a call the API lacks.
    if (result.reason === 'unknown' || result.reason === 'not_implemented') {
      logWarning('portal_call_missing', { id: facts.requestId, call: 'cardUpdate' });
      return answer({ error: 'not_available' }, 501);
    }
    if (result.reason === 'unavailable') return answer({ error: 'unavailable' }, 503);
    return refusalAnswer(facts, result, 'subscriber_card_declined');
  }
  const updated = result.value;
  if (updated.status === 'requires_action') {
    return answer(
      { status: 'requires_action', payment_intent_secret: updated.payment_intent_secret },
      200,
    );
  }
  const label = cardLabelOf(updated.card_brand, updated.card_last4);
  return answer({ status: 'updated', card: label, due: await dueAfterUpdate(facts, deps) }, 200);
}

/**
 * What is still due once the card is updated, in the page's words (*$39.99*), so the page can
 * offer to pay it at once with the card just saved (`POST …/pay-due` with `card_on_file`); null
 * when nothing is due, or when the product API's read cannot say (the update stands either way).
 */
async function dueAfterUpdate(
  facts: Parameters<typeof refusalAnswer>[0],
  deps: CardPostDeps,
): Promise<string | null> {
  const read = await deps.portal.read();
  if (!read.ok || read.value.status !== 'active') return null;
  return moneyOf(read.value.amount_due, read.value.currency, facts.language);
}
