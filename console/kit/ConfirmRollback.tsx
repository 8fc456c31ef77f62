import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { ConfirmActions } from './ConfirmActions';

interface ConfirmRollbackProps {
  /** The opening button's text ("Roll back to c3…"). */
  open: string;
  /** The question the confirm step asks, with what the roll back does and does not touch. */
  question: ReactNode;
  /** The confirm button's text. */
  confirm: string;
  /** A roll back of this version is under way. */
  busy: boolean;
  /** Rolls back with the note; true once published. */
  rollBack: (note: string) => Promise<boolean>;
  /** The status line that says what happened, focused once it is done. */
  statusId: string;
}

/**
 * A roll back's confirm step (and optional note) before anything is written. Keyboard: opening
 * moves focus to the note, Cancel back to the opening button, a done roll back to the status.
 */
export function ConfirmRollback(props: ConfirmRollbackProps) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const noteField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (confirming) noteField.current?.focus();
  }, [confirming]);

  function close() {
    flushSync(() => setConfirming(false));
    opener.current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (props.busy) return;
    if (await props.rollBack(note.trim())) {
      setConfirming(false);
      setNote('');
      document.getElementById(props.statusId)?.focus();
    }
  }

  if (!confirming) {
    return (
      <button type="button" className="button" ref={opener} onClick={() => setConfirming(true)}>
        {props.open}
      </button>
    );
  }
  return (
    <form className="confirm" aria-labelledby={`${id}-question`} onSubmit={onSubmit}>
      <p id={`${id}-question`}>{props.question}</p>
      <label htmlFor={`${id}-note`}>Note (optional)</label>
      <input
        id={`${id}-note`}
        ref={noteField}
        className="input"
        maxLength={500}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      <ConfirmActions onCancel={close}>
        <button
          type="submit"
          className="button button--danger"
          aria-disabled={props.busy || undefined}
        >
          {props.busy ? 'Rolling back…' : props.confirm}
        </button>
      </ConfirmActions>
    </form>
  );
}
