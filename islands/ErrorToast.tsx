import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $error, showError } from './stores/error';

/** SPEC.md §4, §8: the toast clears itself after 3000 ms. */
export const TOAST_DISMISS_MS = 3000;

/** The global toast area (SPEC.md §2): the caller's message in a red box with a close cross. */
export default function ErrorToast({ closeLabel }: { closeLabel: string }) {
  const error = useStore($error);

  // Every showError() sets a new state object, so a new message (even the same text again)
  // restarts the clock.
  useEffect(() => {
    if (!error.show) return;
    const timer = setTimeout(() => showError(false), TOAST_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [error]);

  // The live region is always in the page, so a message put into it is announced.
  return (
    <div className="toast-area" role="alert" aria-live="assertive">
      {error.show && error.message ? (
        <div className="toast">
          <span className="toast__message">{error.message}</span>
          <button
            type="button"
            className="toast__close"
            aria-label={closeLabel}
            onClick={() => showError(false)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ) : null}
    </div>
  );
}
