import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $error, showError } from './stores/error';

/** SPEC.md §4, §9: the toast clears itself after 3000 ms. */
export const TOAST_DISMISS_MS = 3000;

/** The global toast area (SPEC.md §2): the caller's message in a red box with a close cross. */
export default function ErrorToast({ closeLabel }: { closeLabel: string }) {
  const { show, message } = useStore($error);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new message restarts the clock.
  useEffect(() => {
    if (!show) return;
    const timer = setTimeout(() => showError(false), TOAST_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [show, message]);

  return (
    <div className="toast-area" role="status" aria-live="assertive">
      {show && message ? (
        <div className="toast">
          <span className="toast__message">{message}</span>
          <button
            type="button"
            className="toast__close"
            aria-label={closeLabel}
            onClick={() => showError(false)}
          >
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
