import type { FormEvent } from 'react';
import { navigate } from './boot';
import { ContinueButton } from './kit/ContinueButton';
import { $declinedReturn } from './stores/payment';

export interface TryAgainProps {
  /** Where the form posts without JavaScript: the worker answers with its default checkout. */
  action: string;
  /** The worker's default next screen, for a visitor who came from no checkout on this browser. */
  next: string | null;
  label: string;
}

/**
 * 'Payment declined' → Try again (SPEC.md §8): back to the checkout the visitor paid on, kept in
 * $declinedReturn when the decline came, so a visitor of checkout_h3_pp returns to that one.
 */
export default function TryAgain({ action, next, label }: TryAgainProps) {
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const back = $declinedReturn.get() || next;
    if (!back) return;
    event.preventDefault();
    navigate(back);
  }
  return (
    <form method="post" action={action} className="continue-form" onSubmit={onSubmit}>
      <ContinueButton label={label} />
    </form>
  );
}
