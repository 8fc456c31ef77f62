/** What went wrong with the last action, said at once (role=alert) where the action was. */
export function FailureNotice({ message }: { message: string }) {
  return (
    <p className="notice notice--error" role="alert">
      {message}
    </p>
  );
}
