import { CopyHistory } from '../copy/CopyHistory';
import { ConflictNotice } from '../kit/ConflictNotice';
import { FailureNotice } from '../kit/FailureNotice';
import { fieldLabel } from '../kit/field-errors';
import { PageLink } from '../kit/PageLink';
import { StatusLine } from '../kit/StatusLine';
import { useStore } from '../kit/stores/atom';
import { $history, $rollback } from '../kit/stores/history';
import { $live } from '../kit/stores/live';
import { takeLiveConfig } from '../kit/stores/publishing';
import { $historyStatus, HISTORY_STATUS_ID } from '../kit/stores/status';
import { VersionList, versionIdOf } from '../kit/VersionCard';
import { VersionEntry } from './VersionEntry';

function RollbackProblem() {
  const rollback = useStore($rollback);
  const history = useStore($history);
  switch (rollback.kind) {
    case 'conflict':
      return (
        <ConflictNotice
          head={rollback.head}
          changes={rollback.changes}
          action="Nothing was rolled back."
          onTakeLive={takeLiveConfig}
        />
      );
    case 'invalid': {
      const version =
        history.kind === 'ready' ? history.versions.find((v) => v.seq === rollback.seq) : null;
      return (
        <div className="notice notice--error" role="alert">
          <p>
            <strong>
              The document of {version?.id ?? `version ${rollback.seq}`} is refused now;
            </strong>{' '}
            nothing was rolled back.
          </p>
          <ul>
            {rollback.errors.map((error) => (
              <li key={`${error.path}:${error.message}`}>
                {fieldLabel(error.path)}: {error.message}
              </li>
            ))}
          </ul>
        </div>
      );
    }
    case 'failed':
      return <FailureNotice message={rollback.message} />;
    default:
      return null;
  }
}

/** Every published version, newest first: the audit log, with a roll back for each. */
export function History({ only = null }: { only?: string | null }) {
  const history = useStore($history);
  // A version's own page (/console/history/v12) lists that version alone.
  const shown =
    only !== null && history.kind === 'ready'
      ? { ...history, versions: history.versions.filter((version) => version.id === only) }
      : history;
  const live = useStore($live);
  const status = useStore($historyStatus);
  const head = live.kind === 'ready' ? live.state.head : null;
  const idOf = versionIdOf(history, 'version');
  return (
    <section className="section" id="history" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <p className="muted">
        Every publish, from the console or the CLI, is a version that never changes. Roll back
        publishes an earlier version's document again, as a new version.
      </p>
      <StatusLine id={HISTORY_STATUS_ID} status={status} />
      <RollbackProblem />
      {history.kind === 'loading' ? <p className="muted">Loading the history…</p> : null}
      {only === null ? null : (
        <p>
          <PageLink area="history">All versions</PageLink>
        </p>
      )}
      <VersionList
        history={shown}
        empty={
          only === null
            ? 'No versions yet: the first publish starts the history.'
            : `No version ${only} in the history.`
        }
        kind="versions"
        entry={(version) => (
          <VersionEntry version={version} isLive={version.seq === head?.seq} idOf={idOf} />
        )}
      />
      {only === null ? <CopyHistory /> : null}
    </section>
  );
}
