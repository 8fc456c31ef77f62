import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import type { ExperimentResultsAnswer } from '../../shared/console-api/experiment-results';
import { DECISION_RESULTS, type DecisionResult } from '../../shared/experiments';
import { decisionEvidence, decisionOptions, reasonNeeded } from '../decision-options';
import { routeDefaultRefusals } from '../route-default-reach';
import { routeDefaultProblem } from '../route-defaults';
import { useStore } from '../stores/atom';
import { $draft, decideExperiment } from '../stores/draft';
import { $experimentsStatus, resultsForDecision } from '../stores/experiments';
import { Dialog } from './Dialog';
import { reviewAndFocusPublish } from './review-next';

const RESULT_LABELS: Record<DecisionResult, string> = {
  won: 'Won: a variant beat the control',
  lost: 'Lost: no variant beat the control, or one did worse',
  inconclusive: 'Inconclusive: no clear answer',
};

type Results =
  | { kind: 'loading' }
  | {
      kind: 'ready';
      answer: ExperimentResultsAnswer | null;
      /** Per variant, why making it the routes' default would not reach their new visitors. */
      hidden: Readonly<Record<string, string | null>>;
    };

/** The worker's refusal as a sentence of the dialog. */
const sentence = (text: string) =>
  `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;

/**
 * The one decision that ends an experiment, with nothing chosen for the marketer: what it found,
 * then what ships, each choice with the verdict behind it. Shipping a variant that did not win,
 * or ending while the sample ratio alarm is on, takes a typed reason. Making a variant the routes'
 * default is not offered where something would hide it from their new visitors (the split test,
 * another running experiment): the dialog says what, and what ships it instead. The decision and
 * the evidence it was made on go into the draft, and so, once published, into the version history.
 */
export function DecisionDialog({
  id,
  experiment,
  author,
  kinds,
  openerId,
  onClose,
}: {
  id: string;
  experiment: ExperimentDocument;
  author: string;
  kinds: Readonly<Record<string, string>>;
  openerId: string;
  onClose(): void;
}) {
  const formId = useId();
  const titleId = `${formId}-title`;
  const [results, setResults] = useState<Results>({ kind: 'loading' });
  const [result, setResult] = useState<DecisionResult | null>(null);
  const [choice, setChoice] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<Partial<Record<'result' | 'choice' | 'reason', string>>>(
    {},
  );
  const form = useRef<HTMLFormElement>(null);
  const draft = useStore($draft);

  // What the dialog opened on: the parent draws `kinds` afresh on each render, which must not
  // ask the worker again.
  const opened = useRef({ experiment, kinds, author });

  useEffect(() => {
    let current = true;
    const { experiment, kinds, author } = opened.current;
    const start = $draft.get();
    const others = Object.keys(experiment.variants).filter((key) => key !== experiment.control);
    const reach =
      start && routeDefaultProblem(start.document, id) === null
        ? routeDefaultRefusals(start.base, start.document, id, others, kinds, author)
        : Promise.resolve({});
    void Promise.all([resultsForDecision(id), reach]).then(([answer, hidden]) => {
      if (current) setResults({ kind: 'ready', answer, hidden });
    });
    return () => {
      current = false;
    };
  }, [id]);

  const answer = results.kind === 'ready' ? results.answer : null;
  const problemOfRoutes = draft ? routeDefaultProblem(draft.document, id) : 'no draft';
  const hidden = results.kind === 'ready' ? results.hidden : null;
  const options = decisionOptions(experiment, answer, problemOfRoutes, hidden);
  const hiddenId = (variant: string) => `${formId}-hidden-${variant}`;
  const chosen = options.find((option) => option.value === choice) ?? null;
  const evidence = decisionEvidence(experiment, answer, chosen?.variant);
  const needsReason = chosen ? reasonNeeded(evidence, chosen.variant) : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: typeof problems = {};
    if (result === null) found.result = 'Say what the experiment found.';
    if (chosen === null) found.choice = 'Choose what ships.';
    if (needsReason && reason.trim() === '')
      found.reason = 'Type the reason: it is kept with the decision in the version history.';
    setProblems(found);
    const first = (['result', 'choice', 'reason'] as const).find((key) => found[key]);
    if (first) {
      form.current
        ?.querySelector<HTMLElement>(
          `[data-field="${first}"] input, [data-field="${first}"] textarea`,
        )
        ?.focus();
      return;
    }
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
    );
    $experimentsStatus.set(
      `The decision on ${experiment.name} is in the draft. Publish it below to end the experiment.`,
    );
    onClose();
    void reviewAndFocusPublish();
  }

  const problemLine = (key: keyof typeof problems) =>
    problems[key] ? (
      <p className="field-problem" id={`${formId}-${key}-problem`}>
        {problems[key]}
      </p>
    ) : null;
  const describedBy = (key: keyof typeof problems) =>
    problems[key] ? `${formId}-${key}-problem` : undefined;

  return (
    <Dialog titleId={titleId} returnFocusId={openerId} onClose={onClose}>
      <form ref={form} onSubmit={onSubmit} noValidate>
        <h3 id={titleId}>End {experiment.name}</h3>
        {results.kind === 'loading' ? (
          <p className="muted" role="status">
            Reading its results…
          </p>
        ) : answer === null ? (
          <p className="notice notice--warning">
            Its results could not be read: no variant has a verdict to ship on, so shipping one
            takes a reason.
          </p>
        ) : answer.sampleRatio.alarm ? (
          <p className="notice notice--error">
            The sample ratio alarm is on: visitors did not enter as the weights say, so no verdict
            can be trusted. Ending takes a reason.
          </p>
        ) : null}
        <fieldset className="field" data-field="result" aria-describedby={describedBy('result')}>
          <legend>What did it find?</legend>
          {DECISION_RESULTS.map((value) => (
            <label key={value} className="check" htmlFor={`${formId}-result-${value}`}>
              <input
                id={`${formId}-result-${value}`}
                type="radio"
                name={`${formId}-result`}
                value={value}
                checked={result === value}
                onChange={() => setResult(value)}
              />{' '}
              {RESULT_LABELS[value]}
            </label>
          ))}
          {problemLine('result')}
        </fieldset>
        <fieldset className="field" data-field="choice" aria-describedby={describedBy('choice')}>
          <legend>What ships?</legend>
          {options.map((option) => (
            <div key={option.value} className="decision-option">
              <label className="check" htmlFor={`${formId}-${option.value}`}>
                <input
                  id={`${formId}-${option.value}`}
                  type="radio"
                  name={`${formId}-choice`}
                  value={option.value}
                  checked={choice === option.value}
                  aria-describedby={[
                    `${formId}-${option.value}-evidence`,
                    option.action === 'roll_out' && option.variant && hidden?.[option.variant]
                      ? hiddenId(option.variant)
                      : null,
                  ]
                    .filter(Boolean)
                    .join(' ')}
                  onChange={() => setChoice(option.value)}
                />{' '}
                {option.label}
              </label>
              <p
                className="muted decision-option__evidence"
                id={`${formId}-${option.value}-evidence`}
              >
                {option.evidence}
              </p>
            </div>
          ))}
          {Object.entries(hidden ?? {}).map(([variant, why]) =>
            why ? (
              <p key={variant} className="notice notice--warning" id={hiddenId(variant)}>
                {sentence(why)}
              </p>
            ) : null,
          )}
          {problemOfRoutes ? (
            <p className="muted">
              Making a variant a route’s default is not offered: {problemOfRoutes}.
            </p>
          ) : null}
          {problemLine('choice')}
        </fieldset>
        {needsReason ? (
          <div className="field" data-field="reason">
            <label htmlFor={`${formId}-reason`}>Reason (required)</label>
            <textarea
              id={`${formId}-reason`}
              className="input"
              rows={2}
              maxLength={500}
              value={reason}
              aria-invalid={Boolean(problems.reason) || undefined}
              aria-describedby={[`${formId}-reason-why`, describedBy('reason')]
                .filter(Boolean)
                .join(' ')}
              onChange={(event) => setReason(event.target.value)}
            />
            <p className="muted field__after" id={`${formId}-reason-why`}>
              {needsReason}
            </p>
            {problemLine('reason')}
          </div>
        ) : null}
        <div className="confirm__actions">
          <button type="submit" className="button button--primary">
            Record the decision
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
