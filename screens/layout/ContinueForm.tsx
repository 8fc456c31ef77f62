import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

/**
 * The Continue button (SPEC.md §2: 56px, default label from the translation key `continue`, id
 * `continue-button`) inside a real form: without JavaScript it posts to the worker, which answers
 * with the next screen. `label` replaces the default where the step names its own action.
 */
export function ContinueForm({
  action,
  next,
  t,
  label = t('continue'),
  children,
}: {
  action: string;
  next: string | null;
  t: TFunction;
  label?: string;
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
