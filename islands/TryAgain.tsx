import type { FormEvent } from 'react';
import { navigate } from './boot';
import { ContinueButton } from './kit/ContinueButton';
import { switchToOtherProvider } from './payments/provider-calls';
import { $anotherCardAsked, $declinedReturn } from './stores/payment';

/**
 * What 'Payment declined' offers (screens/after/decline-advice.ts): the same card again, another
 * card (the card form opens empty, its number field focused), the bank's check again (paying
 * again runs 3-D Secure anew), or the other provider's form, once, where the worker offers it
 * (docs/payments.md). Each goes back to the checkout the visitor paid on.
 */
export type DeclinedAction = 'try_again' | 'another_card' | 'complete_check' | 'other_provider';

export interface TryAgainProps {
  /** Where the form posts without JavaScript: the worker answers with its default checkout. */
  action: string;
  /** The worker's default next screen, for a visitor who came from no checkout on this browser. */
  next: string | null;
  label: string;
  /** Absent: Try again, the page's main action. */
  intent?: DeclinedAction;
  /** A second action is drawn as such, and needs its own id. */
  secondary?: boolean;
}

/**
 * 'Payment declined' → back to the checkout the visitor paid on (SPEC.md §8), kept in
 * $declinedReturn when the decline came, so a visitor of checkout_h3_pp returns to that one.
 */
export default function TryAgain({
  action,
  next,
  label,
  intent = 'try_again',
  secondary = false,
}: TryAgainProps) {
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    const back = $declinedReturn.get() || next;
    if (!back) return;
    event.preventDefault();
    // The worker says whether the move is still allowed; refused, the checkout stays as it was.
    const moved = intent === 'other_provider' && (await switchToOtherProvider());
    $anotherCardAsked.set(intent === 'another_card' || moved ? 'yes' : '');
    navigate(back);
  }
  return (
    <form
      method="post"
      action={action}
      className={secondary ? 'continue-form declined__action--secondary' : 'continue-form'}
      onSubmit={onSubmit}
    >
      <ContinueButton label={label} id={secondary ? `declined-${intent}` : undefined} />
    </form>
  );
}
