import type { ReactNode } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import { EXPERIMENT_RESULT_METRICS } from '../../shared/console-api/experiment-results';
import type { ExperimentMetric } from '../../shared/experiments';
import { ProblemLine, problemAria } from '../kit/field-problem';
import { METRIC_NAMES } from '../kit/result-texts';
import { typedNumber } from '../kit/WeightInput';
import type { EditField, EditProblems, ExperimentEditForm } from './experiment-edit-form';
import { NumberField, TextAreaField } from './FormFields';
import { RampFields } from './RampFields';

/** What every part of the edit form is given: its ids, its values, its problems. */
export interface EditParts {
  formId: string;
  form: ExperimentEditForm;
  problems: EditProblems;
  update(fields: Partial<ExperimentEditForm>): void;
}

/** A whole-number field of the edit form, with its hint and its problem. */
function WholeNumberField(props: {
  formId: string;
  problems: EditProblems;
  field: EditField;
  /** The input's own name where two inputs share a field (the range's ends). */
  input?: string;
  label: string;
  value: number | null;
  min: number;
  max?: number;
  hint?: ReactNode;
  /** The field whose problem describes this input, where another input shows it. */
  describedBy?: EditField;
  onValue(value: number): void;
}) {
  const inputId = `${props.formId}-${props.input ?? props.field}`;
  const hintId = props.hint ? `${inputId}-hint` : undefined;
  const shown = props.describedBy ?? props.field;
  return (
    <NumberField
      id={inputId}
      label={props.label}
      field={props.field}
      min={props.min}
      max={props.max}
      step={1}
      value={props.value === null || Number.isNaN(props.value) ? '' : props.value}
      aria={problemAria(props.formId, props.problems, shown, hintId)}
      onChange={(text) => props.onValue(typedNumber(text))}
    >
      {props.hint ? (
        <p className="muted field__after" id={hintId}>
          {props.hint}
        </p>
      ) : null}
      {props.describedBy ? null : (
        <ProblemLine id={props.formId} problems={props.problems} field={props.field} />
      )}
    </NumberField>
  );
}

/** The experiment's name, hypothesis and notes. */
export function EditTexts({ formId, form, problems, update }: EditParts) {
  return (
    <>
      <div className="field" data-field="name">
        <label htmlFor={`${formId}-name`}>Name</label>
        <input
          id={`${formId}-name`}
          className="input"
          autoComplete="off"
          maxLength={120}
          value={form.name}
          {...problemAria(formId, problems, 'name')}
          onChange={(event) => update({ name: event.target.value })}
        />
        <ProblemLine id={formId} problems={problems} field="name" />
      </div>
      <TextAreaField
        id={`${formId}-hypothesis`}
        label="Hypothesis"
        maxLength={1000}
        value={form.hypothesis}
        onChange={(hypothesis) => update({ hypothesis })}
      />
      <TextAreaField
        id={`${formId}-notes`}
        label="Notes"
        maxLength={2000}
        value={form.notes}
        onChange={(notes) => update({ notes })}
      />
    </>
  );
}

/**
 * The primary metric and the planned sample. A save offer test (`saveOffer`) is judged on who
 * stayed, not on a funnel metric: it plans only how many subscribers each variant is shown to.
 */
export function EditMetrics(parts: EditParts & { saveOffer: boolean }) {
  const { formId, form, update, saveOffer } = parts;
  const planned = (
    <WholeNumberField
      {...parts}
      field="planned"
      label={
        saveOffer
          ? 'Planned subscribers shown the offer per variant'
          : 'Planned visitors per variant'
      }
      value={form.plannedPerArm}
      min={100}
      onValue={(plannedPerArm) => update({ plannedPerArm })}
    />
  );
  if (saveOffer) return <div className="row__fields">{planned}</div>;
  return (
    <div className="row__fields">
      <div className="field">
        <label htmlFor={`${formId}-metric`}>Primary metric</label>
        <select
          id={`${formId}-metric`}
          value={form.primary}
          onChange={(event) => update({ primary: event.target.value as ExperimentMetric | '' })}
        >
          {form.primary === '' ? <option value="">Not set</option> : null}
          {EXPERIMENT_RESULT_METRICS.map((metric) => (
            <option key={metric} value={metric}>
              {METRIC_NAMES[metric]}
            </option>
          ))}
        </select>
      </div>
      {planned}
    </div>
  );
}

/**
 * Coverage and the range in the layer; while it runs, each can only grow. `warning`: what the
 * range of a draft would meet on starting (experiment-edit-form.ts editRangeWarning).
 */
export function EditReach(parts: EditParts & { safe: boolean; warning: string | null }) {
  const { form, update, safe, warning } = parts;
  return (
    <div className="row__fields">
      <WholeNumberField
        {...parts}
        field="coverage"
        label="Coverage (% of matching visitors who enter)"
        value={form.coverage}
        min={1}
        max={100}
        hint={safe ? 'It can only rise while it runs.' : undefined}
        onValue={(coverage) => update({ coverage })}
      />
      <WholeNumberField
        {...parts}
        field="range"
        label="Range in the layer from (%)"
        value={form.range[0]}
        min={0}
        max={100}
        hint={
          safe ? (
            'The range can only widen, containing the old one.'
          ) : warning ? (
            <span className="notice notice--warning">{warning}</span>
          ) : undefined
        }
        onValue={(from) => update({ range: [from, form.range[1]] })}
      />
      <WholeNumberField
        {...parts}
        field="range"
        input="range-to"
        label="Range in the layer to (%)"
        value={form.range[1]}
        min={0}
        max={100}
        describedBy="range"
        onValue={(to) => update({ range: [form.range[0], to] })}
      />
    </div>
  );
}

/** Each variant's weight; while it runs, a change of shares starts a new phase. */
export function EditWeights(parts: EditParts & { safe: boolean; experiment: ExperimentDocument }) {
  const { formId, form, problems, update, safe, experiment } = parts;
  const hintId = safe ? `${formId}-phase-hint` : undefined;
  return (
    <fieldset
      className="field"
      data-field="weights"
      aria-describedby={problemAria(formId, problems, 'weights', hintId)['aria-describedby']}
    >
      <legend>Weights</legend>
      {safe ? (
        <p className="muted" id={hintId}>
          Changing a weight starts a new phase: results are read per phase, and visitors already
          exposed keep their variant. Weight 0 stops drawing a variant.
        </p>
      ) : null}
      <div className="row__fields">
        {Object.entries(experiment.variants).map(([key, variant]) => (
          <WholeNumberField
            key={`${formId}-weight-${key}`}
            {...parts}
            field={`weight-${key}`}
            label={`Weight of ${variant.name ?? key}${key === experiment.control ? ' (control)' : ''}`}
            value={form.weights[key] ?? 0}
            min={0}
            onValue={(weight) => update({ weights: { ...form.weights, [key]: weight } })}
          />
        ))}
      </div>
      <ProblemLine id={formId} problems={problems} field="weights" />
    </fieldset>
  );
}

/** What this dialog can change: everything in a draft, only the safe edits while it runs. */
export function EditIntro(props: { formId: string; safe: boolean; state: string }) {
  return props.safe ? (
    <p id={`${props.formId}-safe`}>
      While it {props.state}, only what keeps its results comparable changes here: names, notes,
      metrics, more coverage, a wider range and the weights. Its audience, layer and variants stay
      as they are.
    </p>
  ) : (
    <p className="muted">
      A draft draws nobody yet: every field here can change. Its audience, layer and variants are
      set when it is created; duplicate it to change them.
    </p>
  );
}

/** The days the exposed keep their variant once it ends. */
export function EditDrain(parts: EditParts) {
  return (
    <WholeNumberField
      {...parts}
      field="drain"
      label="Days the exposed keep their variant after it ends"
      value={parts.form.drainDays}
      min={0}
      max={90}
      hint="After these days it can be archived, which frees its range."
      onValue={(drainDays) => parts.update({ drainDays })}
    />
  );
}

/** "Start on a guarded ramp" of a draft (RampFields.tsx). */
export function EditRamp({ formId, form, problems, update }: EditParts) {
  return (
    <RampFields
      id={formId}
      form={form.ramp}
      problems={problems}
      onChange={(ramp) => update({ ramp })}
    />
  );
}
