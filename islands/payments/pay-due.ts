import type { DeclineClass } from '../../shared/decline-class';
import type { PayDueCopy, PayDueProps } from '../PayDue';
import { type CardProvider, ProviderError } from './provider';

/**
 * Paying what a failed renewal left due from the recovery link's page (islands/PayDue.tsx,
 * docs/payments.md "Pay what is due"): the card to the worker's pay-due route, through 3-D
 * Secure when the bank asks.
 */

/** What the pay-due route answered (worker/subscriber-links/pay-due-route.ts). */
type PayDueAnswer =
  | { status: 'paid'; amount: string | null; card: string | null }
  | { status: 'requires_action'; payment_intent_secret: string }
  | { status: 'declined'; decline_code: string | null; decline_class: DeclineClass };

/** What a press of Pay came to, for the page to show. */
export type PayDueOutcome =
  | Extract<PayDueAnswer, { status: 'paid' | 'declined' }>
  | { status: 'error'; message: string };

/** One post of the card to the worker; null when it gave no answer the page can read. */
async function postPayment(
  path: string,
  body: Record<string, string>,
  key: string,
): Promise<PayDueAnswer | null> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    const answer = (await response.json().catch(() => null)) as PayDueAnswer | null;
    if ((response.status === 200 || response.status === 402) && answer?.status) return answer;
    // SPEC.md §8's text says to look here.
    console.error('[pay-due] the worker answered', response.status, answer);
    return null;
  } catch (error) {
    console.error('[pay-due] no answer', error);
    return null;
  }
}

/**
 * Pays the due with the card in the provider's fields: the worker's answer, after the card's
 * 3-D Secure challenge when it asks for one (repeated once with the payment intent's id).
 */
export async function payWithCard(
  provider: CardProvider,
  props: Pick<PayDueProps, 'payPath' | 'settings'> & {
    copy: Pick<PayDueCopy, 'noAnswer' | 'problems'>;
  },
  cardholderName: string,
): Promise<PayDueOutcome> {
  const noAnswer = { status: 'error', message: props.copy.noAnswer } as const;
  try {
    const method = await provider.createPaymentMethod({ cardholderName });
    const body: Record<string, string> = {
      gateway: props.settings.paymentProvider,
      payment_method_nonce: method.nonce,
    };
    // One key per card: a second press of the same card is the same payment.
    const key = `payDue:${method.nonce}`;
    let answer = await postPayment(props.payPath, body, key);
    if (answer?.status === 'requires_action') {
      body.payment_intent_id = await provider.confirmCardPayment(answer.payment_intent_secret);
      answer = await postPayment(props.payPath, body, key);
    }
    if (answer === null || answer.status === 'requires_action') return noAnswer;
    return answer;
  } catch (error) {
    if (!(error instanceof ProviderError)) return noAnswer;
    const message = error.problem ? props.copy.problems[error.problem] : error.message;
    return { status: 'error', message: message || props.copy.problems.payment_error };
  }
}
