import { useWorkingStore } from './kit/use-working-store';
import { $error, showError } from './stores/error';

/**
 * The global toast area (SPEC.md §2): the caller's message in a red box with a close cross. The
 * store clears the message after its time (./stores/error.ts) while this island listens.
 */
export default function ErrorToast({ closeLabel }: { closeLabel: string }) {
  const error = useWorkingStore($error);

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
