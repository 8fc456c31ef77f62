import { RAMP_GUARDRAILS, type RampAction, type RampGuardrail } from '../../shared/ramps';
import { ProblemLine, problemAria } from '../kit/field-problem';
import { typedNumber } from '../kit/WeightInput';
import { NumberField } from './FormFields';
import {
  actionsFor,
  FORGEABLE_REASON,
  GUARDRAIL_NAMES,
  MAX_RAMP_STEPS,
  RAMP_PRESETS,
  type RampForm,
  type RampPreset,
  type RampProblems,
  type RampStepForm,
  withPreset,
} from './ramp-form';

/**
 * "Start on a guarded ramp" (docs/experiments.md, "Guarded ramps"), in the create form and a
 * draft's edit dialog: a checkbox, then the steps as the share of the audience that enters with
 * each step's hours and minimum per arm (from a preset), and what each guardrail does when
 * broken. `id` prefixes the controls' ids; problems are keyed as ramp-form.ts rampProblems says.
 * The decision dialog words it for a roll-out in steps ("A ramped roll-out").
 */

interface Props {
  id: string;
  form: RampForm;
  problems: RampProblems;
  onChange(form: RampForm): void;
}

/** What the checkbox says, and what a ramp does, where the fields ramp something else. */
interface Wording {
  /** The checkbox's label; "Start on a guarded ramp" by default. */
  label?: string;
  /** What a ramp does, said beside the checkbox. */
  hint?: string;
}

const TEST_RAMP_HINT =
  'One variant against its control, at equal weights and a coverage of 100%: a small share of the audience enters first, half in each arm, and more at each step while nothing breaks. Every 15 minutes its guardrails are checked; when one breaks, the ramp holds or rolls back on its own, as chosen below.';

const ACTION_CHOICES: Record<RampAction, string> = {
  rollback: 'Roll back',
  hold: 'Hold at its step',
  warn: 'Warn only',
};

export function RampFields({ id, form, problems, onChange, ...wording }: Props & Wording) {
  const hintId = `${id}-ramp-hint`;
  return (
    <div className="ramp-fields" data-field="ramp-steps">
      <div className="field" data-field="ramp-on">
        <label htmlFor={`${id}-ramp-on`} className="check">
          <input
            id={`${id}-ramp-on`}
            type="checkbox"
            checked={form.on}
            {...problemAria(id, problems, 'ramp-on', hintId)}
            onChange={(event) => onChange({ ...form, on: event.target.checked })}
          />{' '}
          {wording.label ?? 'Start on a guarded ramp'}
        </label>
        <p className="muted field__after" id={hintId}>
          {wording.hint ?? TEST_RAMP_HINT}
        </p>
        <ProblemLine id={id} problems={problems} field="ramp-on" />
      </div>
      {form.on ? (
        <>
          <RampSteps id={id} form={form} problems={problems} onChange={onChange} />
          <RampGuardrails id={id} form={form} problems={problems} onChange={onChange} />
        </>
      ) : null}
    </div>
  );
}

function RampSteps({ id, form, problems, onChange }: Props) {
  const setStep = (index: number, fields: Partial<RampStepForm>) =>
    onChange({
      ...form,
      steps: form.steps.map((step, at) => (at === index ? { ...step, ...fields } : step)),
    });
  return (
    <fieldset className="field">
      <legend>Steps of the ramp</legend>
      <div className="field">
        <label htmlFor={`${id}-ramp-preset`}>Fill the steps from a schedule</label>
        <select
          id={`${id}-ramp-preset`}
          value=""
          onChange={(event) => {
            const preset = event.target.value as RampPreset;
            if (preset in RAMP_PRESETS) onChange(withPreset(form, preset));
          }}
        >
          <option value="">Choose a schedule…</option>
          {Object.entries(RAMP_PRESETS).map(([key, preset]) => (
            <option key={key} value={key}>
              {preset.label}
            </option>
          ))}
        </select>
      </div>
      <ProblemLine id={id} problems={problems} field="ramp-steps" />
      <ol className="rows" aria-label="Steps of the ramp">
        {form.steps.map((step, index) => (
          <RampStepRow
            // Steps have no identity but their place: the list is edited in place.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            id={id}
            index={index}
            step={step}
            problems={problems}
            last={form.steps.length === 1}
            onStep={(fields) => setStep(index, fields)}
            onRemove={() =>
              onChange({ ...form, steps: form.steps.filter((_, at) => at !== index) })
            }
          />
        ))}
      </ol>
      {form.steps.length < MAX_RAMP_STEPS ? (
        <button
          type="button"
          className="button button--small"
          onClick={() =>
            onChange({
              ...form,
              steps: [...form.steps, { enters: 100, hours: 0, minPerArm: 0 }],
            })
          }
        >
          Add a step
        </button>
      ) : null}
    </fieldset>
  );
}

function RampStepRow(props: {
  id: string;
  index: number;
  step: RampStepForm;
  problems: RampProblems;
  last: boolean;
  onStep(fields: Partial<RampStepForm>): void;
  onRemove(): void;
}) {
  const { id, index, step, problems } = props;
  const field = `ramp-step-${index}`;
  const number = (value: number) => (Number.isNaN(value) ? '' : value);
  const aria = problemAria(id, problems, field);
  return (
    <li className="row" data-field={field}>
      <div className="row__fields">
        <NumberField
          id={`${id}-${field}-enters`}
          label={`Step ${index + 1}: % of the audience that enters`}
          min={0}
          max={100}
          value={number(step.enters)}
          aria={aria}
          onChange={(text) => props.onStep({ enters: typedNumber(text) })}
        />
        <NumberField
          id={`${id}-${field}-hours`}
          label={`Step ${index + 1}: hours at least`}
          min={0}
          value={number(step.hours)}
          aria={aria}
          onChange={(text) => props.onStep({ hours: typedNumber(text) })}
        />
        <NumberField
          id={`${id}-${field}-min`}
          label={`Step ${index + 1}: visitors per arm at least`}
          min={0}
          step={1}
          value={number(step.minPerArm)}
          aria={aria}
          onChange={(text) => props.onStep({ minPerArm: typedNumber(text) })}
        />
      </div>
      <ProblemLine id={id} problems={problems} field={field} />
      {props.last ? null : (
        <button type="button" className="button button--small" onClick={props.onRemove}>
          Remove step {index + 1}
        </button>
      )}
    </li>
  );
}

function RampGuardrails({ id, form, problems, onChange }: Props) {
  const setAction = (guardrail: RampGuardrail, action: RampAction) =>
    onChange({ ...form, actions: { ...form.actions, [guardrail]: action } });
  return (
    <fieldset className="field">
      <legend>When a guardrail breaks</legend>
      <div className="row__fields">
        {RAMP_GUARDRAILS.map((guardrail) => {
          const field = `ramp-${guardrail}`;
          const forgeable = actionsFor(guardrail).length < 3;
          const reasonId = forgeable ? `${id}-${field}-why` : undefined;
          return (
            <div className="field" data-field={field} key={guardrail}>
              <label htmlFor={`${id}-${field}`}>{GUARDRAIL_NAMES[guardrail]}</label>
              <select
                id={`${id}-${field}`}
                value={form.actions[guardrail]}
                {...problemAria(id, problems, field, reasonId)}
                onChange={(event) => setAction(guardrail, event.target.value as RampAction)}
              >
                {actionsFor(guardrail).map((action) => (
                  <option key={action} value={action}>
                    {ACTION_CHOICES[action]}
                  </option>
                ))}
              </select>
              {reasonId ? (
                <p className="muted field__after" id={reasonId}>
                  {FORGEABLE_REASON}
                </p>
              ) : null}
              <ProblemLine id={id} problems={problems} field={field} />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
