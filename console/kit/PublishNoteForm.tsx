import type { FormEvent } from 'react';
import { useStore } from './stores/atom';
import { noteOf } from './stores/notes';

/**
 * The last step of a review: an optional note, then publish; once published, focus goes to the
 * area's status line. A second press while publishing does nothing.
 */
export function PublishNoteForm(props: {
  /** The note input's id. */
  id: string;
  label: string;
  action: string;
  publishing: boolean;
  /** Publishes with the note; `breakGlass`: without a second person's approval, the note why. */
  publish(note: string, breakGlass: boolean): Promise<boolean>;
  statusId: string;
  /**
   * A second person approves each change here and this area has no review of its own (the
   * copy's): it publishes only by breaking the glass, its note the reason, which is needed.
   */
  gated?: boolean;
}) {
  const noteAtom = noteOf(props.id);
  const note = useStore(noteAtom);
  const { publishing, gated } = props;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (publishing) return;
    const said = noteAtom.get().trim();
    if (gated && said === '') {
      document.getElementById(props.id)?.focus();
      return;
    }
    if (!(await props.publish(said, gated === true))) return;
    noteAtom.set('');
    document.getElementById(props.statusId)?.focus();
  }

  return (
    <form className="publish" onSubmit={onSubmit}>
      {gated ? (
        <p id={`${props.id}-gate`}>
          A second person approves each change here, and this one has no review to send: it
          publishes only by breaking the glass, with a reason the team's alerts webhook is told and
          the history keeps.
        </p>
      ) : null}
      <label htmlFor={props.id}>{gated ? 'Reason (to break the glass)' : props.label}</label>
      <input
        id={props.id}
        className="input"
        maxLength={500}
        placeholder="Why this change"
        value={note}
        aria-describedby={gated ? `${props.id}-gate` : undefined}
        onChange={(event) => noteAtom.set(event.target.value)}
      />
      <button
        type="submit"
        className={`button ${gated ? 'button--danger' : 'button--primary'}`}
        aria-disabled={publishing || undefined}
      >
        {publishing ? 'Publishing…' : gated ? `Break the glass: ${props.action}` : props.action}
      </button>
    </form>
  );
}
