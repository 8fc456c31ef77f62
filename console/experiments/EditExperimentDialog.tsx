import { type FormEvent, useId, useRef, useState } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import type { ConfigDocument } from '../../shared/console-api/config';
import { ConfirmActions } from '../kit/ConfirmActions';
import { Dialog } from '../kit/Dialog';
import { focusField } from '../kit/field-problem';
import { reviewAndFocusPublish } from '../kit/review-next';
import { replaceExperiment } from '../kit/stores/draft';
import {
  EditDrain,
  EditIntro,
  EditMetrics,
  EditRamp,
  EditReach,
  EditTexts,
  EditWeights,
} from './EditExperimentFields';
import {
  type EditProblems,
  type ExperimentEditForm,
  editFormOf,
  editProblems,
  editRangeWarning,
  experimentOfEdit,
  onlySafeEdits,
  rampEditable,
  sharesChange,
} from './experiment-edit-form';

interface EditDialogProps {
  id: string;
  experiment: ExperimentDocument;
  /** The experiment as published, which the validator compares the edit with. */
  live: ExperimentDocument | undefined;
  document: ConfigDocument;
  openerId: string;
  onClose(): void;
  onDuplicate(): void;
}

/**
 * Edits one experiment. A running or paused one takes only the safe edits (names, notes,
 * metrics, drain days, more coverage, a wider range, weights); the dialog says so, and offers
 * "stop it and duplicate it" for the rest. A weight that draws other shares starts a new phase,
 * said before the marketer confirms. Confirmed, the edit goes into the draft and to the review,
 * where the worker's validator has the last word.
 */
export function EditExperimentDialog(props: EditDialogProps) {
  const { id, experiment, live, document, onClose } = props;
  const formId = useId();
  const titleId = `${formId}-title`;
  const [form, setForm] = useState<ExperimentEditForm>(() => editFormOf(experiment));
  const [problems, setProblems] = useState<EditProblems>({});
  const ref = useRef<HTMLFormElement>(null);
  const safe = onlySafeEdits(live);
  const state = live?.status === 'paused' ? 'is paused' : 'runs';
  const newPhase = safe && sharesChange(live, form.weights);
  // A save offer test draws by the subscription on the subscriber's page: no funnel metric, and
  // no pinned visitors to drain when it ends (worker/subscriber-links/save-offer-arm.ts).
  const saveOffer = experiment.layer === 'subscriber';
  const update = (fields: Partial<ExperimentEditForm>) => setForm((was) => ({ ...was, ...fields }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = editProblems({ form, id, experiment, live, document, now: new Date() });
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) return focusField(ref.current, first);
    replaceExperiment(id, experimentOfEdit(experiment, form));
    onClose();
    void reviewAndFocusPublish(
      `The changes to ${form.name.trim()} are in the draft. Publish them below to make them live.`,
    );
  }

  const parts = { formId, form, problems, update };

  return (
    <Dialog titleId={titleId} returnFocusId={props.openerId} onClose={onClose}>
      <form ref={ref} onSubmit={onSubmit} noValidate>
        <h3 id={titleId}>Edit {experiment.name}</h3>
        <EditIntro formId={formId} safe={safe} state={state} />
        <EditTexts {...parts} />
        <EditMetrics {...parts} saveOffer={saveOffer} />
        <EditReach
          {...parts}
          safe={safe}
          warning={editRangeWarning({ form, id, experiment, document, now: new Date() })}
        />
        <EditWeights {...parts} safe={safe} experiment={experiment} />
        {saveOffer ? null : <EditDrain {...parts} />}
        {rampEditable(experiment, live) && !saveOffer ? <EditRamp {...parts} /> : null}
        {newPhase ? (
          <p className="notice notice--warning" role="status">
            These weights draw visitors in other shares: publishing starts a new phase. Results are
            read per phase; visitors already exposed keep their variant.
          </p>
        ) : null}
        {safe ? (
          <FollowUp
            state={state}
            name={experiment.name}
            onDuplicate={() => {
              onClose();
              props.onDuplicate();
            }}
          />
        ) : null}
        <p className="muted">
          Confirming puts this in the draft and reviews it; it is live once you publish.
        </p>
        <ConfirmActions onCancel={onClose}>
          <button type="submit" className="button button--primary">
            Put the changes to {experiment.name} in the draft
          </button>
        </ConfirmActions>
      </form>
    </Dialog>
  );
}

/** While it runs, anything else is a follow-up: stop it and duplicate it. */
function FollowUp(props: { state: string; name: string; onDuplicate(): void }) {
  return (
    <div className="notice">
      <p>
        To change anything else while it {props.state} (who it takes, its layer, its variants or
        what they change), stop it and duplicate it: the results before and after would otherwise be
        two experiments under one name.
      </p>
      <button type="button" className="button button--small" onClick={props.onDuplicate}>
        Duplicate {props.name} for a follow-up
      </button>
    </div>
  );
}
