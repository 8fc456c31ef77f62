import { useId } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import { ConfirmActions } from '../kit/ConfirmActions';
import { Dialog } from '../kit/Dialog';
import { reviewAndFocusPublish } from '../kit/review-next';
import { removeExperiment } from '../kit/stores/draft';

/**
 * Deletes a draft or an archived experiment, the two that hold no visitor: the worker refuses to
 * delete one that runs or is paused (worker/experiments/config/edits.ts removalIssue), and the
 * card offers Delete only once it is archived, after its drain.
 */
export function DeleteDialog({
  id,
  experiment,
  published,
  openerId,
  onClose,
}: {
  id: string;
  experiment: ExperimentDocument;
  /** Whether the live config has it. */
  published: boolean;
  openerId: string;
  onClose(): void;
}) {
  const titleId = useId();

  function confirm() {
    removeExperiment(id);
    onClose();
    void reviewAndFocusPublish(
      `Deleted ${experiment.name} from the draft. Publish it below to make it final.`,
    );
  }

  return (
    <Dialog titleId={titleId} returnFocusId={openerId} onClose={onClose}>
      <h3 id={titleId}>Delete {experiment.name}?</h3>
      <p>
        {experiment.status === 'draft'
          ? 'It is a draft: nobody has seen it, so no visitor notices.'
          : 'It is archived: nobody keeps its variant, and its range is already free.'}
      </p>
      <p>
        {published
          ? 'It leaves the config once you publish. The version history keeps it: rolling back to an earlier version brings it back.'
          : 'It was never published: it only leaves the draft.'}
      </p>
      <ConfirmActions onCancel={onClose}>
        <button type="button" className="button button--danger" onClick={confirm}>
          Delete {experiment.name}
        </button>
      </ConfirmActions>
    </Dialog>
  );
}
