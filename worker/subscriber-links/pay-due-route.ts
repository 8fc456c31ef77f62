import { paidWithLabel } from '../../islands/payments/paid-with';
import { moneyOf } from '../../screens/subscriber/subscription-rows';
import { PayDueRequest } from '../../shared/api/subscriber-calls';
import { declineClassOf } from '../../shared/decline-class';
import { logLine } from '../../shared/log';
import type { SubscriberEnv } from '../middleware/envs';
import { markLinkDone } from './done-links';
import type { SubscriberLink } from './link-token';
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
  vars: Readonly<SubscriberEnv['Variables']>,
  refusal: { code: string | null; declineCode: string | null },
  event: string,
): Response {
  if (refusal.code === 'payment_declined' || refusal.declineCode !== null) {
    const declineClass = declineClassOf({ declineCode: refusal.declineCode });
    logLine({ id: vars.requestId, event, class: declineClass });
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
 * `POST /subscription/<recover token>/pay-due` (docs/payments.md, "Pay what is due"): the
 * recovery page's script sends the card its provider made (`{gateway, payment_method_nonce}`,
 * then `payment_intent_id` after a 3-D Secure challenge) and the worker asks the product API to
 * pay the failed renewal with it (shared/api/subscriber-calls.ts `payDue`). Answers
 * `{status: 'paid', amount, card}` (the link is then done and opens nothing more),
 * `{status: 'requires_action', payment_intent_secret}`, or 402 `{status: 'declined',
 * decline_code, decline_class}` (shared/decline-class.ts), which the page advises on. The link
 * was checked before (signature, date, not done, rate limit, same origin): a forged or replayed
 * link never reaches the product API, and a second press carries the same Idempotency-Key.
 */
export async function payDueAnswer(
  vars: Readonly<SubscriberEnv['Variables']>,
  request: Request,
  deps: { link: SubscriberLink; portal: SubscriberPortal; env: SubscriberEnv['Bindings'] },
  now: number,
): Promise<Response> {
  if (deps.link.purpose !== 'recover') return answer({ error: 'invalid' }, 400);
  const payment = await paymentOf(request);
  if (payment === null) return answer({ error: 'invalid_request' }, 400);
  const result = await deps.portal.payDue(payment);
  if (!result.ok) {
    if (result.reason === 'unknown') return answer({ error: 'unknown' }, 404);
    if (result.reason !== 'refused') return answer({ error: 'unavailable' }, 503);
    return refusalAnswer(vars, result, 'subscriber_pay_due_declined');
  }
  const paid = result.value;
  if (paid.status === 'requires_action') {
    return answer(
      { status: 'requires_action', payment_intent_secret: paid.payment_intent_secret },
      200,
    );
  }
  await markLinkDone(deps.env, deps.link, 'paid', now, vars.requestId);
  logLine({ id: vars.requestId, event: 'subscriber_paid_due', link: deps.link.linkId });
  const card = cardLabelOf(paid.card_brand, paid.card_last4);
  const amount = moneyOf(paid.amount, paid.currency, vars.language);
  return answer({ status: 'paid', amount, card }, 200);
}
