import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
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
  ShipField,
} from './DecisionFields';
import {
  type DecisionOption,
  decisionEvidence,
  decisionOptions,
  READING,
  reasonNeeded,
} from './decision-options';
import { type RouteDefaultReach, routeDefaultReach } from './route-default-reach';
import { $experimentsStatus, resultsForDecision } from './stores/experiments';

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
 * another running experiment): the dialog says what, and what ships it instead. The decision and
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

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = decisionProblems(result, chosen, Boolean(needsReason) && reason.trim() === '');
    setProblems(found);
    const first = (['result', 'choice', 'reason'] as const).find((key) => found[key]);
    if (first) return focusField(form.current, first);
    if (result === null || chosen === null) return;
    decideExperiment(
      id,
      {
        result,
        action: chosen.action,
        ...(chosen.variant !== undefined ? { variant: chosen.variant } : {}),
        ...(reason.trim() !== '' ? { reason: reason.trim() } : {}),
        // The publish dates and signs it (worker/experiments/config/phases.ts stampPublish).
        at: new Date().toISOString(),
        by: author,
        evidence,
      },
      kinds,
      chosen.leaveSplit,
    );
    $experimentsStatus.set(
      `The decision on ${experiment.name} is in the draft. Publish it below to end the experiment.`,
    );
    onClose();
    void reviewAndFocusPublish();
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
