import type { PayDueCopy, PayDueProps } from '../PayDue';
import { type CardPostOutcome, sendCard } from './card-post';
import type { CardProvider } from './provider';

/**
 * Paying what a failed renewal left due from the recovery link's page (islands/PayDue.tsx,
 * docs/payments.md "Pay what is due"): the card to the worker's pay-due route, through 3-D
 * Secure when the bank asks (./card-post.ts).
 */

/** What a press of Pay came to, for the page to show. */
export type PayDueOutcome = Exclude<
  CardPostOutcome<{ status: 'paid'; amount: string | null; card: string | null }>,
  { status: 'refused' }
>;

/**
 * Pays the due with the card in the provider's fields: the worker's answer, after the card's
 * 3-D Secure challenge when it asks for one (repeated once with the payment intent's id).
 */
export async function payWithCard(
  provider: CardProvider,
  props: Pick<PayDueProps, 'payPath' | 'settings'> & {
    copy: Pick<PayDueCopy, 'noAnswer' | 'refusals' | 'problems'>;
  },
  cardholderName: string,
): Promise<PayDueOutcome> {
  const post = {
    path: props.payPath,
    gateway: props.settings.paymentProvider,
    keyPrefix: 'payDue',
    copy: props.copy,
  };
  const outcome = await sendCard<Extract<PayDueOutcome, { status: 'paid' }>>(
    provider,
    post,
    cardholderName,
  );
  // Pay what is due has no refusal of its own to word: SPEC.md §8's text.
  return outcome.status === 'refused' ? { status: 'error', message: props.copy.noAnswer } : outcome;
}
