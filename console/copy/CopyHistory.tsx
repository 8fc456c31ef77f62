import type { CopyVersionSummary } from '../../shared/console-api/copy';
import type { Change } from '../../shared/console-api/versions';
import { ConfirmRollback } from '../kit/ConfirmRollback';
import { FailureNotice } from '../kit/FailureNotice';
import { StatusLine } from '../kit/StatusLine';
import { useStore } from '../kit/stores/atom';
import { $sharedDraft } from '../kit/stores/shared-draft';
import { VersionCard, VersionList, versionIdOf } from '../kit/VersionCard';
import {
  $copy,
  $copyHistory,
  $copyHistoryStatus,
  $copyRollback,
  COPY_HISTORY_STATUS_ID,
  rollBackCopyTo,
} from './stores/copy';

const SOURCE_TEXTS: Record<CopyVersionSummary['source'], string> = {
  console: 'the console',
  cli: 'the CLI (npm run translations)',
  rollback: 'a roll back',
};

function CopyRollbackControl({ seq, versionId }: { seq: number; versionId: string }) {
  const rollback = useStore($copyRollback);
  const shared = useStore($sharedDraft);
  return (
    <ConfirmRollback
      open={`Roll back copy to ${versionId}…`}
      question={
        <>
          <strong>Publish the copy of {versionId} again, as a new copy version?</strong> Every
          language's texts become what they were in {versionId}; the config (split, routes,
          experiments) is not touched, and no experiment starts a new phase.
        </>
      }
      confirm={`Confirm copy roll back to ${versionId}`}
      busy={rollback.kind === 'busy' && rollback.seq === seq}
      rollBack={(note, breakGlass) => rollBackCopyTo(seq, versionId, note, breakGlass)}
      statusId={COPY_HISTORY_STATUS_ID}
      gated={shared.kind === 'shared' && shared.approvalRequired}
    />
  );
}

function CopyVersionEntry(props: {
  version: CopyVersionSummary & { diff: Change[] };
  isLive: boolean;
  idOf: (seq: number) => string;
}) {
  const { version } = props;
  return (
    <VersionCard
      version={version}
      titleId={`copy-version-title:${version.seq}`}
      Heading="h4"
      title={`Copy ${version.id}`}
      name={`copy ${version.id}`}
      isLive={props.isLive}
      source={SOURCE_TEXTS[version.source] ?? version.source}
      idOf={props.idOf}
      rollback={<CopyRollbackControl seq={version.seq} versionId={version.id} />}
    />
  );
}

/** The copy versions, newest first, in the History: who, when, what changed, and roll back. */
export function CopyHistory() {
  const history = useStore($copyHistory);
  const copy = useStore($copy);
  const rollback = useStore($copyRollback);
  const status = useStore($copyHistoryStatus);
  const head = copy.kind === 'ready' ? copy.state.head : null;
  const idOf = versionIdOf(history, 'copy version');
  return (
    <section className="block" aria-labelledby="copy-history-title">
      <h3 id="copy-history-title">Copy versions</h3>
      <p className="muted">
        Every publish of copy, from the Copy area or <code>npm run translations</code>, counted
        apart from the config's versions (c1, c2…).
      </p>
      <StatusLine id={COPY_HISTORY_STATUS_ID} status={status} />
      {rollback.kind === 'refused' ? <FailureNotice message={rollback.message} /> : null}
      <VersionList
        history={history}
        empty="No copy published yet."
        kind="copy versions"
        entry={(version) => (
          <CopyVersionEntry version={version} isLive={version.seq === head?.seq} idOf={idOf} />
        )}
      />
    </section>
  );
}
