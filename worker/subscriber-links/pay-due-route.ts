import { paidWithLabel } from '../../islands/payments/paid-with';
import { longDay, moneyOf } from '../../screens/subscriber/subscription-rows';
import {
  PayDueCall,
  PayDueRequest,
  type SubscriptionAnswer,
} from '../../shared/api/subscriber-calls';
import { declineClassOf } from '../../shared/decline-class';
import { logLine } from '../../shared/log';
import type { ChargeStepWatch } from '../charge-pipeline/charge-pipeline';
import type { CardFingerprintSource } from '../checkout/charge-call';
import type { ApiRefusal } from '../http/api-json';
import { markLinkDone } from './done-links';
import type { SubscriberFacts } from './page-facts';
import { chargeFromLink, type SubscriberCardPost } from './subscriber-charge';
import type { SubscriberPortal } from './subscriber-portal';

/** What the page's card script is told: JSON, never cached, never the link in a referrer. */
export function answer(
  body: Record<string, unknown>,
  status: 200 | 400 | 402 | 404 | 409 | 501 | 503,
) {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}

/** The page's JSON body as the product API's card request, or null when it is none. */
export async function paymentOf(request: Request): Promise<PayDueRequest | null> {
  try {
    const parsed = PayDueRequest.safeParse(await request.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A product API's refusal of a card the page sent: 402 with the decline's code and class
 * (shared/decline-class.ts), which the page advises on, else 409 with the product API's reason.
 */
export function refusalAnswer(
  facts: SubscriberFacts,
  refusal: { code: string | null; declineCode: string | null },
  event: string,
): Response {
  if (refusal.code === 'payment_declined' || refusal.declineCode !== null) {
    const declineClass = declineClassOf({ declineCode: refusal.declineCode });
    logLine({ id: facts.requestId, event, class: declineClass });
    return answer(
      { status: 'declined', decline_code: refusal.declineCode, decline_class: declineClass },
      402,
    );
  }
  return answer({ error: refusal.code ?? 'refused' }, 409);
}

/** A card's label for the page (*Visa •••• 3184*), null when the product API named none. */
export function cardLabelOf(brand: string | null, last4: string | null): string | null {
  return brand !== null && last4 !== null ? paidWithLabel({ kind: 'card', brand, last4 }) : null;
}

/**
 * A step of the charge pipeline refused the post before the product API was asked: its code
 * (`payment_rate_limited`, `card_stopped`, `purchase_confirming`, …) and status, with its
 * Retry-After, for the page's script; named on the request's log line.
 */
export function stepRefusalAnswer(facts: SubscriberFacts, refused: ApiRefusal): Response {
  facts.note('error', refused.code);
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (refused.retryAfterSeconds !== undefined) {
    headers['retry-after'] = `${refused.retryAfterSeconds}`;
  }
  return Response.json({ error: refused.code }, { status: refused.status, headers });
}

/** What a link's card post needs besides its request: the product API, the card's source. */
export interface CardPostDeps {
  portal: SubscriberPortal;
  fingerprint: CardFingerprintSource | undefined;
  now: number;
  watch?: ChargeStepWatch;
}

/** What a pay post may send: a card just entered; on a manage link, also the card on file. */
async function payCallOf(request: Request, purpose: string): Promise<PayDueCall | null> {
  try {
    const body = await request.json();
    const parsed = (purpose === 'manage' ? PayDueCall : PayDueRequest).safeParse(body);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The due the subscription has now, as the product API reads it: its amount and its name, or a
 * refusal answered before any charge (nothing due: 409 `nothing_due`, nothing changed).
 */
async function dueNow(
  post: SubscriberCardPost,
  portal: SubscriberPortal,
): Promise<{ due: SubscriptionAnswer['data'] } | { refused: Response }> {
  const read = await portal.read();
  if (!read.ok) {
    const refusal = read.reason === 'unknown' ? 'unknown' : 'unavailable';
    return { refused: answer({ error: refusal }, refusal === 'unknown' ? 404 : 503) };
  }
  if (read.value.status !== 'active' || read.value.amount_due === null) {
    post.facts.note('error', 'nothing_due');
    logLine({ id: post.facts.requestId, event: 'subscriber_nothing_due', link: post.link.linkId });
    return { refused: answer({ error: 'nothing_due' }, 409) };
  }
  return { due: read.value };
}

/** The next renewal as the page's row says it (*December 28, 2026, $39.99*), or null. */
function renewsOf(
  facts: SubscriberFacts,
  renewsAt: string | null,
  subscription: SubscriptionAnswer['data'],
): string | null {
  const date = longDay(renewsAt, facts.language);
  if (date === null) return null;
  const price = moneyOf(subscription.renewal_amount, subscription.currency, facts.language);
  return price === null ? date : facts.t('subscriber.rows.renews_at', { date, price });
}

/**
 * `POST /subscription/<token>/pay-due` (docs/payments.md, "Pay what is due"): the page's script
 * sends the card its provider made (`{gateway, payment_method_nonce}`, then `payment_intent_id`
 * after a 3-D Secure challenge), or, from a manage link whose card was just updated, asks for the
 * card on file (`{gateway, card_on_file: true}`), and the worker asks the product API to pay the
 * failed renewal with it (shared/api/subscriber-calls.ts `payDue`), through the charge pipeline
 * (./subscriber-charge.ts). The product API's read comes first: nothing due is 409
 * `nothing_due` before any step, and the due it names is the ledger's, whichever link pays it.
 * Answers `{status: 'paid', amount, card, renews}` (a recovery link is then done and opens
 * nothing more; a manage link stays open, to cancel later), `{status: 'requires_action',
 * payment_intent_secret}`, or 402 `{status: 'declined', decline_code, decline_class}`
 * (shared/decline-class.ts), which the page advises on. The link was checked before (signature,
 * date, not done, rate limit, same origin): a forged or replayed link never reaches the product
 * API, and a second press of one card is the same request.
 */
export async function payDueAnswer(
  post: SubscriberCardPost,
  deps: CardPostDeps,
): Promise<Response> {
  const { facts, link } = post;
  const payment = await payCallOf(post.request, link.purpose);
  if (payment === null) return answer({ error: 'invalid_request' }, 400);
  const now = await dueNow(post, deps.portal);
  if ('refused' in now) return now.refused;
  const charged = await chargeFromLink(
    post,
    {
      way: 'pay_due',
      payment,
      due: { dueId: now.due.due_id },
      fingerprint: deps.fingerprint,
      now: deps.now,
      watch: deps.watch,
    },
    (key) => deps.portal.payDue(payment, key),
    async (paid) => {
      if (paid.status === 'requires_action') return;
      // A recovery link's one action is done; a manage link must still cancel months later.
      if (link.purpose === 'recover') {
        await markLinkDone(post.env, link, 'paid', deps.now, facts.requestId);
      }
      logLine({ id: facts.requestId, event: 'subscriber_paid_due', link: link.linkId });
    },
  );
  if ('refused' in charged) return stepRefusalAnswer(facts, charged.refused);
  const result = charged.result;
  if (!result.ok) {
    if (result.reason === 'unknown') return answer({ error: 'unknown' }, 404);
    if (result.reason !== 'refused') return answer({ error: 'unavailable' }, 503);
    return refusalAnswer(facts, result, 'subscriber_pay_due_declined');
  }
  const paid = result.value;
  if (paid.status === 'requires_action') {
    return answer(
      { status: 'requires_action', payment_intent_secret: paid.payment_intent_secret },
      200,
    );
  }
  return answer(
    {
      status: 'paid',
      amount: moneyOf(paid.amount, paid.currency, facts.language),
      card: cardLabelOf(paid.card_brand, paid.card_last4),
      renews: renewsOf(facts, paid.renews_at, now.due),
    },
    200,
  );
}
