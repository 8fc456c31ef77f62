import type { MouseEvent } from 'react';

export interface ContinueButtonProps {
  /**
   * Translated on the server, as every island's text: the screen passes `t('continue')`, the
   * Continue button's default label (SPEC.md §2), unless the step names its own action.
   */
  label: string;
  /** SPEC.md §2: `continue-button` unless a screen needs a second one. */
  id?: string;
  type?: 'submit' | 'button';
  disabled?: boolean;
  /** While the step's request runs: announced, and further presses are ignored. */
  busy?: boolean;
  /** Shown instead of the label while busy, e.g. the `kit.continue_busy` translation. */
  busyLabel?: string;
  /** The id of a text that says what the press does (an upsell's 'charged now to …'). */
  describedBy?: string;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
}

/**
 * The Continue button for islands that own their form or button (SPEC.md §2: 56px, label key
 * `continue`, id `continue-button`). Same classes as the server's ContinueForm button, so the
 * two look identical. A busy button stays focusable (aria-disabled, not disabled), so a
 * keyboard visitor keeps their place.
 */
export function ContinueButton({
  label,
  id = 'continue-button',
  type = 'submit',
  disabled = false,
  busy = false,
  busyLabel,
  describedBy,
  onClick,
}: ContinueButtonProps) {
  return (
    <button
      id={id}
      type={type}
      className="button button--primary"
      disabled={disabled}
      aria-busy={busy || undefined}
      aria-describedby={describedBy}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {busy ? <span className="button__spinner" aria-hidden="true" /> : null}
      {busy && busyLabel ? busyLabel : label}
    </button>
  );
}
