import type { ExperimentResultsAnswer } from '../../shared/console-api/experiment-results';
import { DECISION_RESULTS, type DecisionResult } from '../../shared/experiments';
import { ProblemLine, problemAria } from '../kit/field-problem';
import type { DecisionOption } from './decision-options';
import { capital } from './experiment-texts';
import { TextAreaField } from './FormFields';
import { RampFields } from './RampFields';
import type { RampForm, RampProblems } from './ramp-form';

/** What the decision form may find wrong, by field. */
export type DecisionProblems = Partial<Record<'result' | 'choice' | 'reason', string>>;

const RESULT_LABELS: Record<DecisionResult, string> = {
  won: 'Won: a variant beat the control',
  lost: 'Lost: no variant beat the control, or one did worse',
  inconclusive: 'Inconclusive: no clear answer',
};

/** The worker's refusal as a sentence of the dialog. */
const sentence = (text: string) => `${capital(text)}${text.endsWith('.') ? '' : '.'}`;

/** While the results load, and what their absence or an alarm means for the decision. */
export function ResultsNotice(props: { loading: boolean; answer: ExperimentResultsAnswer | null }) {
  if (props.loading) {
    return (
      <p className="muted" role="status">
        Reading its results…
      </p>
    );
  }
  if (props.answer === null) {
    return (
      <p className="notice notice--warning">
        Its results could not be read: no variant has a verdict to ship on, so shipping one takes a
        reason.
      </p>
    );
  }
  return props.answer.sampleRatio.alarm ? (
    <p className="notice notice--error">
      The sample ratio alarm is on: visitors did not enter as the weights say, so no verdict can be
      trusted. Ending takes a reason.
    </p>
  ) : null;
}

/** What the experiment found: won, lost or inconclusive. */
export function FoundField(props: {
  formId: string;
  problems: DecisionProblems;
  result: DecisionResult | null;
  onResult(result: DecisionResult): void;
}) {
  const { formId, problems } = props;
  return (
    <fieldset
      className="field"
      data-field="result"
      aria-describedby={problemAria(formId, problems, 'result')['aria-describedby']}
    >
      <legend>What did it find?</legend>
      {DECISION_RESULTS.map((value) => (
        <label key={value} className="check" htmlFor={`${formId}-result-${value}`}>
          <input
            id={`${formId}-result-${value}`}
            type="radio"
            name={`${formId}-result`}
            value={value}
            checked={props.result === value}
            onChange={() => props.onResult(value)}
          />{' '}
          {RESULT_LABELS[value]}
        </label>
      ))}
      <ProblemLine id={formId} problems={problems} field="result" />
    </fieldset>
  );
}

/**
 * What ships, each choice with the verdict behind it; a routes' default something would hide from
 * their new visitors says what.
 */
export function ShipField(props: {
  formId: string;
  problems: DecisionProblems;
  options: readonly DecisionOption[];
  choice: string | null;
  hidden: Readonly<Record<string, string | null>> | null;
  problemOfRoutes: string | null;
  onChoice(choice: string): void;
}) {
  const { formId, problems, hidden } = props;
  const hiddenId = (variant: string) => `${formId}-hidden-${variant}`;
  return (
    <fieldset
      className="field"
      data-field="choice"
      aria-describedby={problemAria(formId, problems, 'choice')['aria-describedby']}
    >
      <legend>What ships?</legend>
      {props.options.map((option) => (
        <div key={option.value} className="decision-option">
          <label className="check" htmlFor={`${formId}-${option.value}`}>
            <input
              id={`${formId}-${option.value}`}
              type="radio"
              name={`${formId}-choice`}
              value={option.value}
              checked={props.choice === option.value}
              aria-describedby={[
                `${formId}-${option.value}-evidence`,
                (option.action === 'roll_out' || option.leaveSplit) &&
                option.variant &&
                hidden?.[option.variant]
                  ? hiddenId(option.variant)
                  : null,
              ]
                .filter(Boolean)
                .join(' ')}
              onChange={() => props.onChoice(option.value)}
            />{' '}
            {option.label}
          </label>
          <p className="muted decision-option__evidence" id={`${formId}-${option.value}-evidence`}>
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
      {props.problemOfRoutes ? (
        <p className="muted">
          Making a variant a route’s default is not offered: {props.problemOfRoutes}.
        </p>
      ) : null}
      <ProblemLine id={formId} problems={problems} field="choice" />
    </fieldset>
  );
}

/** The reason a decision against the evidence takes, and why it takes one. */
export function ReasonField(props: {
  formId: string;
  problems: DecisionProblems;
  why: string;
  reason: string;
  onReason(reason: string): void;
}) {
  const { formId, problems } = props;
  return (
    <TextAreaField
      id={`${formId}-reason`}
      label="Reason (required)"
      field="reason"
      maxLength={500}
      value={props.reason}
      aria={problemAria(formId, problems, 'reason', `${formId}-reason-why`)}
      onChange={props.onReason}
    >
      <p className="muted field__after" id={`${formId}-reason-why`}>
        {props.why}
      </p>
      <ProblemLine id={formId} problems={problems} field="reason" />
    </TextAreaField>
  );
}

const ROLL_OUT_RAMP_HINT =
  'The variant first reaches a small share of the experiment’s audience while an equal share keeps the control, both counted in a phase of their own, and more at each step while nothing breaks. Every 15 minutes its guardrails are checked; when one breaks, the ramp holds or rolls back on its own, as chosen below. After its last step the variant reaches everyone.';

/**
 * "Roll it out in steps" beside a roll-out (docs/experiments.md, "A ramped roll-out"): the
 * create form's ramp fields, worded for a winner that ships in steps.
 */
export function RollOutRampField(props: {
  formId: string;
  form: RampForm;
  problems: RampProblems;
  onChange(form: RampForm): void;
}) {
  return (
    <RampFields
      id={`${props.formId}-rollout`}
      form={props.form}
      problems={props.problems}
      label="Roll it out in steps (a guarded ramp)"
      hint={ROLL_OUT_RAMP_HINT}
      onChange={props.onChange}
    />
  );
}
