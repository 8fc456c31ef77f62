import { ConfirmRollback } from '../kit/ConfirmRollback';
import { useStore } from '../kit/stores/atom';
import { useHasEdits } from '../kit/stores/draft';
import { $rollback } from '../kit/stores/history';
import { rollBackTo, toReviewDraft } from '../kit/stores/publishing';
import { $sharedDraft } from '../kit/stores/shared-draft';
import { HISTORY_STATUS_ID } from '../kit/stores/status';
import { rollbackNotice } from './rollback-text';

/** Roll back the config to one version, with a confirm step before anything is written. */
export function RollbackControl({ seq, versionId }: { seq: number; versionId: string }) {
  const rollback = useStore($rollback);
  const hasEdits = useHasEdits();
  const shared = useStore($sharedDraft);
  const gated = shared.kind === 'shared' && shared.approvalRequired;
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
      rollBack={(note, breakGlass) => rollBackTo(seq, note, breakGlass)}
      statusId={HISTORY_STATUS_ID}
      gated={gated}
      review={{ text: `Put ${versionId} in the draft for review`, run: () => toReviewDraft(seq) }}
    />
  );
}
