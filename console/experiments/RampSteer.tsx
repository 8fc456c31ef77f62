import { type FormEvent, useId, useState } from 'react';
import {
  RAMP_REASON_MAX,
  type RampPersonMove,
  type RampStatusAnswer,
} from '../../shared/console-api/ramp-status';
import { ConfirmActions } from '../kit/ConfirmActions';
import { Dialog } from '../kit/Dialog';
import { FailureNotice } from '../kit/FailureNotice';
import { ProblemLine, problemAria } from '../kit/field-problem';
import type { RampSubject } from '../kit/ramp-line';
import { useStore } from '../kit/stores/atom';
import { $sharedDraft } from '../kit/stores/shared-draft';
import { TextAreaField } from './FormFields';
import { moveRamp } from './stores/ramp-moves';

/**
 * Hold, Resume and Roll back on a live ramp (docs/experiments.md, "Guarded ramps"), an
 * experiment's on its results, a new route's on its card (docs/routes.md, "A new route on a
 * ramp"): each asks a reason in a dialog that says what happens, then is published at once as a
 * version (stores/ramp-moves.ts), as `npm run experiments -- ramp hold|resume|rollback` is. A
 * running or done ramp can be held, a held one resumed, and either rolled back; a rolled-back one
 * offers nothing (duplicate the experiment, or add the route under a new id, to ramp it again).
 */

const LABELS: Record<RampPersonMove, string> = {
  hold: 'Hold the ramp',
  resume: 'Resume the ramp',
  rollback: 'Roll back the ramp',
};

const STILL_GUARDED = 'A guardrail set to roll back still rolls it back.';
const RESUMED =
  'The ramp goes on from its step: it moves to the next one once the step’s hours are up and each arm has its minimum, while no guardrail is broken.';
const RECORDS_STAY =
  'Every visitor’s record stays: the exposures and outcomes counted so far remain in the results.';

/** What each move does to a variant's ramp or a route's, said before it is confirmed. */
const EFFECTS: Record<RampSubject, Record<RampPersonMove, string[]>> = {
  variant: {
    hold: [
      'The ramp stays at its step: the visitors it takes now keep coming, half in each arm, but it goes to no next step until someone resumes it.',
      STILL_GUARDED,
    ],
    resume: [RESUMED],
    rollback: [
      'The variant reaches no one: new visitors and those already exposed to it get the control’s route.',
      RECORDS_STAY,
      'It cannot be undone: to ramp the variant again, duplicate the experiment (a new draw).',
    ],
  },
  route: {
    hold: [
      'The ramp stays at its step: the visitors its band takes keep getting the route, and as many the route they would get without it, but it goes to no next step until someone resumes it.',
      STILL_GUARDED,
    ],
    resume: [RESUMED],
    rollback: [
      'The route takes no one: new visitors and those it had get the route they would get without it.',
      RECORDS_STAY,
      'It cannot be undone: to ramp the route again, add it under a new id (its visitors are drawn again).',
    ],
  },
};

/** Whose ramp the buttons steer, and what the page does once a move is published. */
export interface RampSteerProps {
  /** The ramp's results id: the experiment's, or the route's `route:<id>`. */
  id: string;
  /** As the buttons and the status line name it: "Landing AI", "route tiktok_bf". */
  name: string;
  ramp: RampStatusAnswer;
  subject?: RampSubject;
  /**
   * Told what was published ("Held the ramp of …: published v12."): the page reads the ramp
   * again and says it on its status line, `statusId`, where focus goes next.
   */
  onMoved(done: string): Promise<void> | void;
  statusId: string;
}

/** The moves a ramp in `status` takes. */
function movesOf(status: RampStatusAnswer['status']): RampPersonMove[] {
  if (status === 'rolled_back') return [];
  return status === 'held' ? ['resume', 'rollback'] : ['hold', 'rollback'];
}

const openerId = (id: string, move: RampPersonMove) => `ramp-${move}:${id}`;

/** The ramp's buttons, and the dialog of the one pressed. */
export function RampSteer(props: RampSteerProps) {
  const [open, setOpen] = useState<RampPersonMove | null>(null);
  const moves = movesOf(props.ramp.status);
  if (moves.length === 0) return null;
  return (
    <>
      <p className="actions ramp-steer">
        {moves.map((move) => (
          <button
            key={move}
            id={openerId(props.id, move)}
            type="button"
            className={`button button--small${move === 'rollback' ? ' button--danger' : ''}`}
            onClick={() => setOpen(move)}
          >
            {LABELS[move]} of {props.name}…
          </button>
        ))}
      </p>
      {open ? <RampMoveDialog {...props} move={open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

function RampMoveDialog(props: RampSteerProps & { move: RampPersonMove; onClose(): void }) {
  const { id, name, ramp, move, subject = 'variant' } = props;
  const formId = useId();
  const titleId = `${formId}-title`;
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const problems = { reason: problem ?? undefined };
  const shared = useStore($sharedDraft);
  // A resume gives visitors back to the variant: where a second person approves each change, it
  // goes out only as a break-glass (worker/config/gate.ts); a hold or roll back needs none.
  const breaksGlass = move === 'resume' && shared.kind === 'shared' && shared.approvalRequired;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (reason.trim() === '') {
      setProblem('Say why: it is kept as the ramp’s reason and the version’s note.');
      event.currentTarget.querySelector('textarea')?.focus();
      return;
    }
    setProblem(null);
    setBusy(true);
    const outcome = await moveRamp(id, name, ramp, move, reason.trim(), breaksGlass);
    if (!outcome.ok) {
      setBusy(false);
      return setFailure(outcome.message);
    }
    await props.onMoved(outcome.done);
    setBusy(false);
    props.onClose();
    // Done, focus goes to the status line saying so: the opener is gone, as the ramp's status
    // changed the buttons (after the dialog has closed and given focus back).
    requestAnimationFrame(() => document.getElementById(props.statusId)?.focus());
  }

  return (
    <Dialog titleId={titleId} returnFocusId={openerId(id, move)} onClose={props.onClose}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={busy || undefined}>
        <h3 id={titleId}>
          {LABELS[move]} of {name}?
        </h3>
        {EFFECTS[subject][move].map((sentence) => (
          <p key={sentence}>{sentence}</p>
        ))}
        <TextAreaField
          id={`${formId}-reason`}
          label="Why (kept as the ramp’s reason and the version’s note)"
          field="reason"
          maxLength={RAMP_REASON_MAX}
          value={reason}
          aria={problemAria(formId, problems, 'reason')}
          onChange={setReason}
        >
          <ProblemLine id={formId} problems={problems} field="reason" />
        </TextAreaField>
        <p className="muted">
          {breaksGlass
            ? 'A second person approves each change here: resuming breaks the glass. It publishes at once, the team’s alerts webhook is told and the history keeps your reason.'
            : 'Confirming publishes it at once, as a version in the history.'}
        </p>
        {failure ? <FailureNotice message={failure} /> : null}
        <ConfirmActions onCancel={props.onClose}>
          <button
            type="submit"
            className={`button ${move === 'rollback' ? 'button--danger' : 'button--primary'}`}
            disabled={busy}
          >
            {breaksGlass ? 'Break the glass: ' : ''}
            {LABELS[move]} of {name}
          </button>
        </ConfirmActions>
      </form>
    </Dialog>
  );
}
