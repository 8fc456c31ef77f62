import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useStore } from '../stores/atom';
import { useHasEdits } from '../stores/draft';
import { $rollback } from '../stores/history';
import { rollBackTo } from '../stores/publishing';
import { HISTORY_STATUS_ID } from '../stores/status';
import { rollbackNotice } from './rollback-text';

/** Roll back to one version, with a confirm step (and an optional note) before anything is written. */
export function RollbackControl({ seq, versionId }: { seq: number; versionId: string }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const rollback = useStore($rollback);
  const hasEdits = useHasEdits();
  const opener = useRef<HTMLButtonElement>(null);
  const noteField = useRef<HTMLInputElement>(null);
  const busy = rollback.kind === 'busy' && rollback.seq === seq;

  useEffect(() => {
    if (confirming) noteField.current?.focus();
  }, [confirming]);

  function close() {
    flushSync(() => setConfirming(false));
    opener.current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (await rollBackTo(seq, note.trim())) {
      setConfirming(false);
      setNote('');
      document.getElementById(HISTORY_STATUS_ID)?.focus();
    }
  }

  if (!confirming) {
    return (
      <button type="button" className="button" ref={opener} onClick={() => setConfirming(true)}>
        Roll back to {versionId}…
      </button>
    );
  }
  return (
    <form className="confirm" aria-labelledby={`${id}-question`} onSubmit={onSubmit}>
      <p id={`${id}-question`}>
        <strong>Publish the document of {versionId} again, as a new version?</strong>{' '}
        {rollbackNotice(hasEdits)}
      </p>
      <label htmlFor={`${id}-note`}>Note (optional)</label>
      <input
        id={`${id}-note`}
        ref={noteField}
        className="input"
        maxLength={500}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      <div className="confirm__actions">
        <button type="submit" className="button button--danger" aria-disabled={busy || undefined}>
          {busy ? 'Rolling back…' : `Confirm roll back to ${versionId}`}
        </button>
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
