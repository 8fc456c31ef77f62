import { ConfirmRollback } from '../kit/ConfirmRollback';
import { useStore } from '../kit/stores/atom';
import { useHasEdits } from '../kit/stores/draft';
import { $rollback } from '../kit/stores/history';
import { rollBackTo } from '../kit/stores/publishing';
import { HISTORY_STATUS_ID } from '../kit/stores/status';
import { rollbackNotice } from './rollback-text';

/** Roll back the config to one version, with a confirm step before anything is written. */
export function RollbackControl({ seq, versionId }: { seq: number; versionId: string }) {
  const rollback = useStore($rollback);
  const hasEdits = useHasEdits();
  return (
    <ConfirmRollback
      open={`Roll back to ${versionId}…`}
      question={
        <>
          <strong>Publish the document of {versionId} again, as a new version?</strong>{' '}
          {rollbackNotice(hasEdits)}
        </>
      }
      confirm={`Confirm roll back to ${versionId}`}
      busy={rollback.kind === 'busy' && rollback.seq === seq}
      rollBack={(note) => rollBackTo(seq, note)}
      statusId={HISTORY_STATUS_ID}
    />
  );
}
