import type { ReactNode } from 'react';

/**
 * The Continue button (SPEC.md §2: 56px, label key `continue`, id `continue-button`) inside a
 * real form: without JavaScript it posts to the worker, which answers with the next screen.
 */
export function ContinueForm({
  action,
  next,
  label,
  children,
}: {
  action: string;
  next: string | null;
  label: string;
  children?: ReactNode;
}) {
  return (
    <form method="post" action={action} data-next={next ?? undefined} className="continue-form">
      {children}
      <button id="continue-button" type="submit" className="button button--primary">
        {label}
      </button>
    </form>
  );
}
