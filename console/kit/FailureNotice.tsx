/** What went wrong with the last action, said at once (role=alert) where the action was. */
export function FailureNotice({ message }: { message: string }) {
  return (
    <p className="notice notice--error" role="alert">
      {message}
    </p>
  );
}

/** A load that failed, with the one way on: loading again. */
export function LoadFailure({ message, retry }: { message: string; retry: () => Promise<void> }) {
  return (
    <div className="notice notice--error" role="alert">
      <p>{message}</p>
      <button type="button" className="button" onClick={() => void retry()}>
        Try again
      </button>
    </div>
  );
}
