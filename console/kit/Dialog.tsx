import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A modal dialog: the browser's own <dialog> shown with showModal(), which keeps focus inside,
 * makes the page behind it inert and closes on Escape. Closing gives focus back to the control
 * that opened it (`returnFocusId`), where a keyboard user left off.
 */
export function Dialog({
  titleId,
  returnFocusId,
  onClose,
  children,
}: {
  titleId: string;
  returnFocusId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    else dialog.setAttribute('open', '');
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      // After React has removed it: the opener may have been drawn again meanwhile.
      requestAnimationFrame(() => document.getElementById(returnFocusId)?.focus());
    };
  }, [returnFocusId]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId}>
      {children}
    </dialog>
  );
}
