import type { PayDueCopy, PayDueProps } from '../PayDue';
import type { DuePaid } from '../stores/due-paid';
import { type CardPostOutcome, sendCard, sendCardOnFile } from './card-post';
import type { CardProvider } from './provider';

/**
 * Paying what a failed renewal left due from the recovery link's page (islands/PayDue.tsx,
 * docs/payments.md "Pay what is due"): the card to the worker's pay-due route, through 3-D
 * Secure when the bank asks (./card-post.ts).
 */

/** What a press of Pay came to, for the page to show. */
export type PayDueOutcome = Exclude<CardPostOutcome<PaidDue>, { status: 'refused' }>;

type PayCopy = Pick<PayDueCopy, 'noAnswer' | 'refusals' | 'problems' | 'nothingDue'>;

/** The worker's answer to a pay that went through. */
type PaidDue = { status: 'paid' } & DuePaid;

/** A refusal in the page's words: paid meanwhile (`nothing_due`), else SPEC.md §8's text. */
function worded(outcome: CardPostOutcome<PaidDue>, copy: PayCopy) {
  if (outcome.status !== 'refused') return outcome;
  const message = outcome.error === 'nothing_due' ? copy.nothingDue : copy.noAnswer;
  return { status: 'error' as const, message };
}

/** Where a pay-due post goes, under which key, with the words for what goes wrong. */
type PayProps = Pick<PayDueProps, 'payPath' | 'settings'> & { copy: PayCopy };

const postOf = (props: PayProps) => ({
  path: props.payPath,
  gateway: props.settings.paymentProvider,
  keyPrefix: 'payDue',
  copy: props.copy,
});

/**
 * Pays the due with the card in the provider's fields: the worker's answer, after the card's
 * 3-D Secure challenge when it asks for one (repeated once with the payment intent's id).
 */
export async function payWithCard(
  provider: CardProvider,
  props: PayProps,
  cardholderName: string,
): Promise<PayDueOutcome> {
  const outcome = await sendCard<PaidDue>(provider, postOf(props), cardholderName);
  return worded(outcome, props.copy);
}

/**
 * Pays the due with the card on file (the one Update card just saved on a manage link), through
 * the challenge `provider` runs when the bank asks for one: the worker's answer, in its words.
 */
export async function payWithCardOnFile(
  provider: CardProvider,
  props: PayProps,
): Promise<PayDueOutcome> {
  return worded(await sendCardOnFile<PaidDue>(provider, postOf(props)), props.copy);
}
