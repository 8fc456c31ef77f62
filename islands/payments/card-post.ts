import type { DeclineClass } from '../../shared/decline-class';
import { type CardProvider, ProviderError, type ProviderProblem } from './provider';

/**
 * A card the subscriber's page sends to the worker (docs/payments.md, "The subscriber's page"):
 * the provider's payment method posted as JSON, through the card's 3-D Secure challenge when the
 * bank asks (the same post again with the payment intent's id). Paying what is due
 * (./pay-due.ts) and updating the card (../UpdateCard.tsx) both send one.
 */

/** The worker's answers every card post may give; `done` is the post's own success. */
export type CardPostAnswer<Done extends { status: string }> =
  | Done
  | { status: 'requires_action'; payment_intent_secret: string }
  | { status: 'declined'; decline_code: string | null; decline_class: DeclineClass }
  /** A refusal the page words itself (`subscription_ended`, `not_available`). */
  | { status: 'refused'; error: string };

/** What a press came to, for the page to show. */
export type CardPostOutcome<Done extends { status: string }> =
  | Exclude<CardPostAnswer<Done>, { status: 'requires_action' }>
  | { status: 'error'; message: string };

/** The words a card post needs for what went wrong. */
export interface CardPostCopy {
  /** SPEC.md §8: the worker could not answer. */
  noAnswer: string;
  /**
   * The charge pipeline's refusals by code (shared/api/error-text.ts CARD_REFUSAL_KEYS): the
   * card-testing limit (wait an hour), the card stopped or tried too often, a payment that may
   * have gone through, payments paused.
   */
  refusals: Readonly<Record<string, string>>;
  /** Our own reasons a provider fails (./provider.ts ProviderProblem). */
  problems: Record<ProviderProblem, string>;
}

/** One post of the card to the worker; null when it gave no answer the page can read. */
async function postCard<Done extends { status: string }>(
  path: string,
  body: Record<string, string | boolean>,
  key: string,
): Promise<CardPostAnswer<Done> | null> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    const answer = (await response.json().catch(() => null)) as {
      status?: string;
      error?: string;
    } | null;
    if ((response.status === 200 || response.status === 402) && answer?.status) {
      return answer as CardPostAnswer<Done>;
    }
    if (response.status >= 400 && typeof answer?.error === 'string') {
      return { status: 'refused', error: answer.error };
    }
    // SPEC.md §8's text says to look here.
    console.error('[card] the worker answered', response.status, answer);
    return null;
  } catch (error) {
    console.error('[card] no answer', error);
    return null;
  }
}

/** Where a card post goes, what it is, and the words for what goes wrong. */
interface CardPost {
  path: string;
  gateway: string;
  keyPrefix: string;
  copy: CardPostCopy;
}

/**
 * Posts `body` under `key`, then again with the payment intent's id after the challenge
 * `provider` runs when the worker asks for one: what it came to, in the page's words.
 */
async function postThroughChallenge<Done extends { status: string }>(
  provider: CardProvider,
  post: CardPost,
  body: Record<string, string | boolean>,
  key: string,
): Promise<CardPostOutcome<Done>> {
  let answer = await postCard<Done>(post.path, body, key);
  if (answer?.status === 'requires_action' && 'payment_intent_secret' in answer) {
    body.payment_intent_id = await provider.confirmCardPayment(answer.payment_intent_secret);
    answer = await postCard<Done>(post.path, body, key);
  }
  if (answer === null || answer.status === 'requires_action') {
    return { status: 'error', message: post.copy.noAnswer };
  }
  const refused = answer.status === 'refused' && 'error' in answer ? answer.error : null;
  const words = refused === null ? undefined : post.copy.refusals[refused];
  if (words !== undefined) return { status: 'error', message: words };
  return answer as CardPostOutcome<Done>;
}

/** A provider's failure in the page's words; anything else is SPEC.md §8's text. */
function failureOf(error: unknown, copy: CardPostCopy): { status: 'error'; message: string } {
  if (!(error instanceof ProviderError)) return { status: 'error', message: copy.noAnswer };
  const message = error.problem ? copy.problems[error.problem] : error.message;
  return { status: 'error', message: message || copy.problems.payment_error };
}

/**
 * Sends the card in the provider's fields to `path`: the worker's answer, after the card's 3-D
 * Secure challenge when it asks for one. `keyPrefix` names the action; one key per card, so a
 * second press of the same card is the same action.
 */
export async function sendCard<Done extends { status: string }>(
  provider: CardProvider,
  post: CardPost,
  cardholderName: string,
): Promise<CardPostOutcome<Done>> {
  try {
    const method = await provider.createPaymentMethod({ cardholderName });
    const body = { gateway: post.gateway, payment_method_nonce: method.nonce };
    return await postThroughChallenge<Done>(
      provider,
      post,
      body,
      `${post.keyPrefix}:${method.nonce}`,
    );
  } catch (error) {
    return failureOf(error, post.copy);
  }
}

/**
 * Asks the worker to charge the card on file (`card_on_file`): a manage link's "Pay now" with the
 * card Update card just saved. `provider` runs the challenge if the bank asks for one.
 */
export async function sendCardOnFile<Done extends { status: string }>(
  provider: CardProvider,
  post: CardPost,
): Promise<CardPostOutcome<Done>> {
  try {
    const body = { gateway: post.gateway, card_on_file: true };
    return await postThroughChallenge<Done>(provider, post, body, `${post.keyPrefix}:on file`);
  } catch (error) {
    return failureOf(error, post.copy);
  }
}
