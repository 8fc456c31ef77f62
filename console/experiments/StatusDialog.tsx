import { useEffect, useId, useState } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import { ConfirmActions } from '../kit/ConfirmActions';
import { Dialog } from '../kit/Dialog';
import { reviewAndFocusPublish } from '../kit/review-next';
import { setExperimentStatus } from '../kit/stores/draft';
import { MOVE_LABELS, MOVE_STATUS, moveText, type StatusMove } from './experiment-texts';
import { rollsOut } from './layer-space';
import { resultsForDecision } from './stores/experiments';

/**
 * Start, pause, resume or stop, said before it is done: what changes for whom, with the count
 * of visitors already exposed when the results give it. Confirmed, the change goes into the draft
 * and to the review; it is live once published.
 */
export function StatusDialog({
  id,
  experiment,
  move,
  openerId,
  onClose,
}: {
  id: string;
  experiment: ExperimentDocument;
  move: StatusMove;
  openerId: string;
  onClose(): void;
}) {
  const titleId = useId();
  const [exposed, setExposed] = useState<number | null>(null);
  useEffect(() => {
    if (move === 'start' || move === 'archive') return;
    let current = true;
    void resultsForDecision(id).then((answer) => {
      if (current && answer) setExposed(answer.reach.exposed);
    });
    return () => {
      current = false;
    };
  }, [id, move]);
  const label = MOVE_LABELS[move];

  function confirm() {
    setExperimentStatus(id, MOVE_STATUS[move]);
    onClose();
    void reviewAndFocusPublish(
      `${label} ${experiment.name}: in the draft. Publish it below to make it live.`,
    );
  }

  return (
    <Dialog titleId={titleId} returnFocusId={openerId} onClose={onClose}>
      <h3 id={titleId}>
        {label} {experiment.name}?
      </h3>
      {moveText(move, experiment, exposed).map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
      <p className="muted">
        Confirming puts this in the draft and reviews it; it is live once you publish.
      </p>
      <ConfirmActions onCancel={onClose}>
        <button
          type="button"
          className={`button ${move === 'stop' || (move === 'archive' && rollsOut(experiment)) ? 'button--danger' : 'button--primary'}`}
          onClick={confirm}
        >
          {label} {experiment.name}
        </button>
      </ConfirmActions>
    </Dialog>
  );
}
