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
  publish(note: string): Promise<boolean>;
  statusId: string;
}) {
  const noteAtom = noteOf(props.id);
  const note = useStore(noteAtom);
  const { publishing } = props;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (publishing) return;
    if (!(await props.publish(noteAtom.get().trim()))) return;
    noteAtom.set('');
    document.getElementById(props.statusId)?.focus();
  }

  return (
    <form className="publish" onSubmit={onSubmit}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className="input"
        maxLength={500}
        placeholder="Why this change"
        value={note}
        onChange={(event) => noteAtom.set(event.target.value)}
      />
      <button
        type="submit"
        className="button button--primary"
        aria-disabled={publishing || undefined}
      >
        {publishing ? 'Publishing…' : props.action}
      </button>
    </form>
  );
}
