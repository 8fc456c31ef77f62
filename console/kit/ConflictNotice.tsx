import type { Change, VersionSummary } from '../../shared/console-api/versions';
import { ChangeList } from './ChangeList';
import { changesText } from './change-text';
import { timeText } from './time-text';

/**
 * Someone published since this page loaded its base version: what they changed, and a way to
 * take the live config (the draft is dropped: rebasing edits onto someone else's is a merge the
 * marketer should make knowingly, by editing again).
 */
export function ConflictNotice(props: {
  head: VersionSummary;
  changes: readonly Change[];
  /** What did not happen, e.g. "Nothing was published." */
  action: string;
  onTakeLive: () => void;
}) {
  const { head, changes, action, onTakeLive } = props;
  return (
    <div className="notice notice--error" role="alert">
      <p>
        <strong>
          Someone published {head.id} since you started: {changesText(changes)}.
        </strong>{' '}
        {action} ({head.author}, <time dateTime={head.at}>{timeText(head.at)}</time>
        {head.note ? `: “${head.note}”` : ''})
      </p>
      <ChangeList changes={changes} label={`Changes in ${head.id}`} />
      <button type="button" className="button" onClick={onTakeLive}>
        Load the live config (discards your edits)
      </button>
    </div>
  );
}
