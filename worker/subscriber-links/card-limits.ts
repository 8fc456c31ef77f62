import type { CardFingerprintSource } from '../api/card-fingerprint';
import { attemptOf } from '../api/charge-topic';
import type { SubscriberEnv } from '../middleware/envs';
import { limitRefusal, type RateAsker, recordDecline } from '../rate-limits/rate-limit-gate';
import { DECLINE_RULES } from '../rate-limits/rate-limits';
import type { SubscriberLink } from './link-token';

/**
 * The card-testing limits on the subscriber's page (docs/payments.md, "Card testing"): a manage
 * link's Update card and a recovery link's Pay take any card, so a bought subscription's link
 * would otherwise be an open card form for running stolen numbers through. Its posts count
 * against the checkout's own decline limits (worker/rate-limits/rate-limits.ts DECLINE_RULES):
 * per address and per card, shared with the checkout, so moving from one form to the other
 * gains a card tester nothing; and per subscription where the checkout counts per visitor, since
 * the page has no visitor and a link can be opened from any browser. Five declines an hour on
 * one subscription stop its card posts for the hour; a card that is accepted never counts.
 */

/** The request and link a card post is counted under. */
interface CardPostSubject {
  env: SubscriberEnv['Bindings'];
  vars: Readonly<SubscriberEnv['Variables']>;
  request: Request;
  link: SubscriberLink;
}

/** What a card post is counted as: who asks, which card, and which attempt a decline is. */
export interface CountedCardPost {
  asker: RateAsker;
  card: string | null;
  attempt: string;
}

/** The subscription, in the limits' visitor slot: a link has no visitor of its own. */
function askerOf({ env, vars, request, link }: CardPostSubject): RateAsker {
  return {
    env,
    visitorId: `subscription:${link.subscriptionId}`,
    connectingIp: request.headers.get('cf-connecting-ip') ?? undefined,
    requestId: vars.requestId,
    fields: vars.logFields,
  };
}

/** The nonce a card post carries, read from a copy so the route still reads the body. */
async function nonceOf(request: Request): Promise<string | null> {
  const body = (await request
    .clone()
    .json()
    .catch(() => null)) as { payment_method_nonce?: unknown } | null;
  const nonce = body?.payment_method_nonce;
  return typeof nonce === 'string' && nonce !== '' ? nonce : null;
}

/**
 * Checks the card-testing limits before a card post reaches the product API: a 429
 * `{error: 'payment_rate_limited'}` with its Retry-After when one refuses, logged with its rule;
 * else how to count the post's decline if it has one (countCardDecline).
 */
export async function checkCardPost(
  subject: CardPostSubject,
  fingerprint: CardFingerprintSource | undefined,
): Promise<{ refused: Response } | { counted: CountedCardPost }> {
  const asker = askerOf(subject);
  const nonce = await nonceOf(subject.request);
  const card = nonce && fingerprint ? await fingerprint(nonce, subject.env) : null;
  const refusal = await limitRefusal(asker, 'subscriberCard', DECLINE_RULES, { phone: null, card });
  if (refusal) {
    subject.vars.logFields.error = 'payment_rate_limited';
    const headers = { 'cache-control': 'no-store', 'retry-after': `${refusal.retryAfterSeconds}` };
    return { refused: Response.json({ error: 'payment_rate_limited' }, { status: 429, headers }) };
  }
  const key = subject.request.headers.get('idempotency-key');
  // The same card posted again (a second press, the post after 3-D Secure) is one attempt.
  return { counted: { asker, card, attempt: attemptOf(subject.vars.requestId, key) } };
}

/** Counts a declined card post (its answer a 402) against the limits checkCardPost checked. */
export async function countCardDecline(post: CountedCardPost, answer: Response): Promise<void> {
  if (answer.status !== 402) return;
  await recordDecline(post.asker, `subscriber:${post.attempt}`, post.card);
}
