import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { BREAK_GLASS_REASON_MAX } from '../../shared/console-api/versions';
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
  /** Rolls back with the note (a break-glass: the note is its reason); true once published. */
  rollBack: (note: string, breakGlass: boolean) => Promise<boolean>;
  /** The status line that says what happened, focused once it is done. */
  statusId: string;
  /**
   * A second person approves each change here (PUBLISH_APPROVAL): the roll back goes through
   * `review` (the config's: into the draft) if given, or breaks the glass with a reason.
   */
  gated?: boolean;
  /** The gated way for a second person to see it first: its button's text and action. */
  review?: { text: string; run: () => Promise<boolean> };
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

  function done() {
    setConfirming(false);
    setNote('');
    document.getElementById(props.statusId)?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (props.busy) return;
    if (props.gated && note.trim() === '') {
      noteField.current?.focus();
      return;
    }
    if (await props.rollBack(note.trim(), props.gated === true)) done();
  }

  async function toReview() {
    if (props.busy || !props.review) return;
    if (await props.review.run()) done();
  }

  if (!confirming) {
    return (
      <button type="button" className="button" ref={opener} onClick={() => setConfirming(true)}>
        {props.open}
      </button>
    );
  }
  const { gated, review } = props;
  return (
    <form className="confirm" aria-labelledby={`${id}-question`} onSubmit={onSubmit}>
      <p id={`${id}-question`}>{props.question}</p>
      {gated ? <GateNotice id={`${id}-gate`} review={review?.text} /> : null}
      <label htmlFor={`${id}-note`}>
        {gated ? 'Reason (to break the glass)' : 'Note (optional)'}
      </label>
      <input
        id={`${id}-note`}
        ref={noteField}
        className="input"
        maxLength={BREAK_GLASS_REASON_MAX}
        value={note}
        aria-describedby={gated ? `${id}-gate` : undefined}
        onChange={(event) => setNote(event.target.value)}
      />
      <RollbackActions
        onCancel={close}
        busy={props.busy}
        confirm={gated ? `Break the glass: ${props.confirm}` : props.confirm}
        review={gated && review ? { text: review.text, run: () => void toReview() } : undefined}
      />
    </form>
  );
}

/** What a gated roll back may do instead of going out alone. */
function GateNotice({ id, review }: { id: string; review: string | undefined }) {
  return (
    <p id={id}>
      A second person approves each change here.{' '}
      {review ? `${review} to have it approved, or break` : 'Break'} the glass: roll back now with a
      reason, which the team's alerts webhook is told and the history keeps.
    </p>
  );
}

/** The confirm step's buttons: to review (gated, where there is a way), roll back, Cancel. */
function RollbackActions(props: {
  onCancel: () => void;
  busy: boolean;
  confirm: string;
  review: { text: string; run: () => void } | undefined;
}) {
  const { review } = props;
  return (
    <ConfirmActions onCancel={props.onCancel}>
      {review ? (
        <button
          type="button"
          className="button button--primary"
          aria-disabled={props.busy || undefined}
          onClick={review.run}
        >
          {review.text}
        </button>
      ) : null}
      <button
        type="submit"
        className="button button--danger"
        aria-disabled={props.busy || undefined}
      >
        {props.busy ? 'Rolling back…' : props.confirm}
      </button>
    </ConfirmActions>
  );
}
