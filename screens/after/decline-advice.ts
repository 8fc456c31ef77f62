import type { DeclinedAction } from '../../islands/TryAgain';
import type { DeclineClass } from '../../shared/decline-class';

/**
 * What 'Payment declined' says and offers for each class of decline (shared/decline-class.ts):
 * its lead, its hints (keys under `after.decline_advice.<class>.hints`, or SPEC.md §8's three
 * for `unknown`) and its actions, the first of them the main one. A card that will never pass
 * (invalid, blocked) gets no Try again, so nothing invites the same card again.
 */
export interface DeclineAdvice {
  /** null: the screen's own lead (its copy), as for an unclassified decline. */
  lead: string | null;
  hints: readonly string[];
  actions: readonly [DeclinedAction, ...DeclinedAction[]];
}

const own = (cause: DeclineClass, hints: readonly string[]) => ({
  lead: `after.decline_advice.${cause}.lead`,
  hints: hints.map((hint) => `after.decline_advice.${cause}.hints.${hint}`),
});

export const DECLINE_ADVICE: Record<DeclineClass, DeclineAdvice> = {
  insufficient_funds: {
    ...own('insufficient_funds', ['balance', 'another_card']),
    actions: ['another_card', 'try_again'],
  },
  card_invalid: { ...own('card_invalid', ['details', 'expired']), actions: ['another_card'] },
  do_not_honour: { ...own('do_not_honour', ['bank']), actions: ['another_card', 'try_again'] },
  authentication_failed: {
    ...own('authentication_failed', ['check']),
    actions: ['complete_check'],
  },
  processing_error: { ...own('processing_error', ['wait']), actions: ['try_again'] },
  fraud_suspected: { ...own('fraud_suspected', ['another_card']), actions: ['another_card'] },
  // SPEC.md §8: what the visitor can check before trying the card again.
  unknown: {
    lead: null,
    hints: ['balance', 'limits', 'issuer'].map((hint) => `after.declined.hints.${hint}`),
    actions: ['try_again'],
  },
};

/** The label key of each action; Try again keeps the declined page's own (a marketer's copy). */
export const ACTION_LABELS: Record<DeclinedAction, string> = {
  try_again: 'after.declined.try_again',
  another_card: 'after.decline_advice.actions.another_card',
  complete_check: 'after.decline_advice.actions.complete_check',
  other_provider: 'after.decline_advice.actions.other_provider',
};
