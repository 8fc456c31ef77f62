import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { ExperimentDecision, ExperimentDocument } from '../../shared/config/experiments';
import type { ExperimentResultsAnswer } from '../../shared/console-api/experiment-results';
import type { DecisionResult } from '../../shared/experiments';
import { ConfirmActions } from '../kit/ConfirmActions';
import { Dialog } from '../kit/Dialog';
import { focusField } from '../kit/field-problem';
import { reviewAndFocusPublish } from '../kit/review-next';
import { routeDefaultProblem } from '../kit/route-defaults';
import { useStore } from '../kit/stores/atom';
import { $draft, decideExperiment } from '../kit/stores/draft';
import {
  type DecisionProblems,
  FoundField,
  ReasonField,
  ResultsNotice,
  RollOutRampField,
  ShipField,
} from './DecisionFields';
import {
  type DecisionOption,
  decisionEvidence,
  decisionOptions,
  READING,
  reasonNeeded,
} from './decision-options';
import { type RampProblems, rampFormOf, rampOfForm, rampProblems } from './ramp-form';
import { type RouteDefaultReach, routeDefaultReach } from './route-default-reach';
import { resultsForDecision } from './stores/experiments';

type Results =
  | { kind: 'loading' }
  | {
      kind: 'ready';
      answer: ExperimentResultsAnswer | null;
      /** Per variant, whether making it the routes' default reaches their new visitors. */
      reach: RouteDefaultReach;
    };

/**
 * The experiment's results and, per variant, what would hide it as the routes' default, read once
 * when the dialog opens.
 */
function useDecisionResults(
  id: string,
  experiment: ExperimentDocument,
  kinds: Readonly<Record<string, string>>,
  author: string,
): Results {
  const [results, setResults] = useState<Results>({ kind: 'loading' });
  // What the dialog opened on: the parent draws `kinds` afresh on each render, which must not
  // ask the worker again.
  const opened = useRef({ experiment, kinds, author });

  useEffect(() => {
    let current = true;
    const { experiment, kinds, author } = opened.current;
    const start = $draft.get();
    const others = Object.keys(experiment.variants).filter((key) => key !== experiment.control);
    const reaching =
      start && routeDefaultProblem(start.document, id) === null
        ? routeDefaultReach(start.base, start.document, id, others, kinds, author)
        : Promise.resolve({ hidden: {}, leavingSplit: {} });
    void Promise.all([resultsForDecision(id), reaching]).then(([answer, reach]) => {
      if (current) setResults({ kind: 'ready', answer, reach });
    });
    return () => {
      current = false;
    };
  }, [id]);
  return results;
}

/** The choices the dialog offers on what it has read so far, and what keeps some back. */
function useDecisionChoices(id: string, experiment: ExperimentDocument, results: Results) {
  const draft = useStore($draft);
  const answer = results.kind === 'ready' ? results.answer : null;
  const problemOfRoutes = draft ? routeDefaultProblem(draft.document, id) : 'no draft';
  const reach = results.kind === 'ready' ? results.reach : null;
  const options = decisionOptions(
    experiment,
    results.kind === 'loading' ? READING : answer,
    problemOfRoutes,
    reach,
  );
  return { answer, problemOfRoutes, hidden: reach?.hidden ?? null, options };
}

/**
 * "Roll it out in steps" while a roll-out is chosen (docs/experiments.md, "A ramped roll-out"):
 * the ramp form, its refusals once submitted, and the decision's ramp, from its first step now.
 */
function useRollOutRamp(chosen: DecisionOption | null) {
  const [form, setForm] = useState(() => rampFormOf(undefined));
  const [problems, setProblems] = useState<RampProblems>({});
  const shown = chosen?.action === 'roll_out';
  const inSteps = shown && form.on;
  return {
    shown,
    form,
    problems,
    setForm,
    /** Says what the steps may not hold at their fields, and returns it; none without steps. */
    refuse(): RampProblems {
      const found = inSteps ? rampProblems(form) : {};
      setProblems(found);
      return found;
    },
    ramp: (now: Date) => (inSteps ? rampOfForm(form, now) : undefined),
  };
}

/** The field a refused decision sends the marketer to: the first refused, top to bottom. */
function firstRefused(found: DecisionProblems, ramp: RampProblems): string | undefined {
  return [
    ...(['result', 'choice'] as const).filter((key) => found[key]),
    ...Object.keys(ramp),
    ...(found.reason ? ['reason'] : []),
  ][0];
}

/** What a dialog ending or settling one experiment is given (this and RouteDefaultDialog). */
export interface DecisionDialogProps {
  id: string;
  experiment: ExperimentDocument;
  author: string;
  kinds: Readonly<Record<string, string>>;
  openerId: string;
  onClose(): void;
}

/**
 * The one decision that ends an experiment, with nothing chosen for the marketer: what it found,
 * then what ships, each choice with the verdict behind it. Shipping a variant that did not win,
 * or ending while the sample ratio alarm is on, takes a typed reason. Making a variant the routes'
 * default is not offered where something would hide it from their new visitors (the split test,
 * another running experiment): the dialog says what, and what ships it instead. A roll-out can go
 * in steps, on a guarded ramp (docs/experiments.md, "A ramped roll-out"). The decision, its ramp and
 * the evidence it was made on go into the draft, and so, once published, into the version history.
 */
export function DecisionDialog(props: DecisionDialogProps) {
  const { id, experiment, author, kinds, onClose } = props;
  const formId = useId();
  const titleId = `${formId}-title`;
  const [result, setResult] = useState<DecisionResult | null>(null);
  const [choice, setChoice] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<DecisionProblems>({});
  const form = useRef<HTMLFormElement>(null);
  const results = useDecisionResults(id, experiment, kinds, author);
  const { answer, problemOfRoutes, hidden, options } = useDecisionChoices(id, experiment, results);
  const chosen = options.find((option) => option.value === choice) ?? null;
  const evidence = decisionEvidence(experiment, answer, chosen?.variant);
  const needsReason = chosen ? reasonNeeded(evidence, chosen.variant) : null;
  const steps = useRollOutRamp(chosen);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = decisionProblems(result, chosen, Boolean(needsReason) && reason.trim() === '');
    setProblems(found);
    const first = firstRefused(found, steps.refuse());
    if (first) return focusField(form.current, first);
    if (result === null || chosen === null) return;
    const ramp = steps.ramp(new Date());
    recordDecision(
      props,
      {
        result,
        action: chosen.action,
        ...(chosen.variant !== undefined ? { variant: chosen.variant } : {}),
        ...(reason.trim() !== '' ? { reason: reason.trim() } : {}),
        // The publish dates and signs it (worker/experiments/config/phases.ts stampPublish).
        at: new Date().toISOString(),
        by: author,
        evidence,
        ...(ramp ? { ramp } : {}),
      },
      chosen.leaveSplit,
    );
  }

  const fields = { formId, problems };

  return (
    <Dialog titleId={titleId} returnFocusId={props.openerId} onClose={onClose}>
      <form ref={form} onSubmit={onSubmit} noValidate>
        <h3 id={titleId}>End {experiment.name}</h3>
        <ResultsNotice loading={results.kind === 'loading'} answer={answer} />
        <FoundField {...fields} result={result} onResult={setResult} />
        <ShipField
          {...fields}
          options={options}
          choice={choice}
          hidden={hidden}
          problemOfRoutes={problemOfRoutes}
          onChoice={setChoice}
        />
        {steps.shown ? (
          <RollOutRampField
            formId={formId}
            form={steps.form}
            problems={steps.problems}
            onChange={steps.setForm}
          />
        ) : null}
        {needsReason ? (
          <ReasonField {...fields} why={needsReason} reason={reason} onReason={setReason} />
        ) : null}
        <ConfirmActions onCancel={onClose}>
          <button type="submit" className="button button--primary">
            Record the decision
          </button>
        </ConfirmActions>
      </form>
    </Dialog>
  );
}

/** Puts the decision into the draft and says so; its review and publish come next. */
function recordDecision(
  props: DecisionDialogProps,
  decision: ExperimentDecision,
  leaveSplit: readonly string[] | undefined,
) {
  decideExperiment(props.id, decision, props.kinds, leaveSplit);
  props.onClose();
  void reviewAndFocusPublish(
    `The decision on ${props.experiment.name} is in the draft. Publish it below to end the experiment.`,
  );
}

/** What keeps the decision from the draft: nothing found said, nothing chosen, no reason typed. */
function decisionProblems(
  result: DecisionResult | null,
  chosen: DecisionOption | null,
  reasonMissing: boolean,
): DecisionProblems {
  const found: DecisionProblems = {};
  if (result === null) found.result = 'Say what the experiment found.';
  if (chosen === null) found.choice = 'Choose what ships.';
  if (reasonMissing)
    found.reason = 'Type the reason: it is kept with the decision in the version history.';
  return found;
}
