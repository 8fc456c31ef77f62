import type { ReactNode } from 'react';

/** A confirmation's buttons: what it does, then Cancel, which closes it and changes nothing. */
export function ConfirmActions({
  onCancel,
  children,
}: {
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <div className="confirm__actions">
      {children}
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
