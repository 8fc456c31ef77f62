export interface LoadingOverlayProps {
  enabled: boolean;
  /** Optional text under the spinner (SPEC.md §2). */
  message?: string;
  /** Spoken when there is no message, e.g. the `kit.loading` translation. */
  label: string;
}

/**
 * SPEC.md §2: the full-screen loading overlay, shown only when enabled. It covers the page and
 * takes every click meant for it, but traps no focus: it is gone as soon as the wait ends.
 */
export function LoadingOverlay({ enabled, message, label }: LoadingOverlayProps) {
  if (!enabled) return null;
  return (
    <div className="loading-overlay" role="status" aria-live="polite" aria-busy="true">
      <span className="loading-overlay__spinner" aria-hidden="true" />
      {message ? (
        <p className="loading-overlay__message">{message}</p>
      ) : (
        <span className="visually-hidden">{label}</span>
      )}
    </div>
  );
}
