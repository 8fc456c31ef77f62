import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import type { ConfigDocument } from '../../shared/console-api/config';
import { EXPERIMENT_RESULT_METRICS } from '../../shared/console-api/experiment-results';
import type { ExperimentMetric } from '../../shared/experiments';
import {
  type EditField,
  type EditProblems,
  type ExperimentEditForm,
  editFormOf,
  editProblems,
  experimentOfEdit,
  onlySafeEdits,
  sharesChange,
} from '../experiment-edit-form';
import { METRIC_NAMES } from '../result-texts';
import { replaceExperiment } from '../stores/draft';
import { $experimentsStatus } from '../stores/experiments';
import { Dialog } from './Dialog';
import { reviewAndFocusPublish } from './review-next';

/** Numbers as typed; an emptied field is NaN, which the form refuses. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * Edits one experiment. A running or paused one takes only the safe edits (names, notes,
 * metrics, drain days, more coverage, a wider range, weights); the dialog says so, and offers
 * "stop it and duplicate it" for the rest. A weight that draws other shares starts a new phase,
 * said before the marketer confirms. Confirmed, the edit goes into the draft and to the review,
 * where the worker's validator has the last word.
 */
export function EditExperimentDialog({
  id,
  experiment,
  live,
  document,
  openerId,
  onClose,
  onDuplicate,
}: {
  id: string;
  experiment: ExperimentDocument;
  /** The experiment as published, which the validator compares the edit with. */
  live: ExperimentDocument | undefined;
  document: ConfigDocument;
  openerId: string;
  onClose(): void;
  onDuplicate(): void;
}) {
  const formId = useId();
  const titleId = `${formId}-title`;
  const [form, setForm] = useState<ExperimentEditForm>(() => editFormOf(experiment));
  const [problems, setProblems] = useState<EditProblems>({});
  const ref = useRef<HTMLFormElement>(null);
  const safe = onlySafeEdits(live);
  const state = live?.status === 'paused' ? 'is paused' : 'runs';
  const newPhase = safe && sharesChange(live, form.weights);
  const update = (fields: Partial<ExperimentEditForm>) => setForm((was) => ({ ...was, ...fields }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = editProblems({ form, id, experiment, live, document, now: new Date() });
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) {
      ref.current
        ?.querySelector<HTMLElement>(
          `[data-field="${first}"] input, [data-field="${first}"] select, [data-field="${first}"] textarea`,
        )
        ?.focus();
      return;
    }
    replaceExperiment(id, experimentOfEdit(experiment, form));
    $experimentsStatus.set(
      `The changes to ${form.name.trim()} are in the draft. Publish them below to make them live.`,
    );
    onClose();
    void reviewAndFocusPublish();
  }

  const problemId = (key: EditField) => `${formId}-${key}-problem`;
  const line = (key: EditField) =>
    problems[key] ? (
      <p className="field-problem" id={problemId(key)}>
        {problems[key]}
      </p>
    ) : null;
  const described = (key: EditField, ...hints: (string | undefined)[]) =>
    [...hints, problems[key] ? problemId(key) : undefined].filter(Boolean).join(' ') || undefined;
  const invalid = (key: EditField) => Boolean(problems[key]) || undefined;

  const numberField = (options: {
    field: EditField;
    /** The input's own name where two inputs share a field (the range's ends). */
    input?: string;
    label: string;
    value: number | null;
    min: number;
    max?: number;
    hint?: ReactNode;
    describedBy?: EditField;
    onValue(value: number): void;
  }) => {
    const inputId = `${formId}-${options.input ?? options.field}`;
    const hintId = options.hint ? `${inputId}-hint` : undefined;
    const shown = options.describedBy ?? options.field;
    return (
      <div className="field" data-field={options.field} key={inputId}>
        <label htmlFor={inputId}>{options.label}</label>
        <input
          id={inputId}
          className="input input--number"
          type="number"
          min={options.min}
          max={options.max}
          step={1}
          value={options.value === null || Number.isNaN(options.value) ? '' : options.value}
          aria-invalid={invalid(shown)}
          aria-describedby={described(shown, hintId)}
          onChange={(event) => options.onValue(numberOf(event.target.value))}
        />
        {options.hint ? (
          <p className="muted field__after" id={hintId}>
            {options.hint}
          </p>
        ) : null}
        {options.describedBy ? null : line(options.field)}
      </div>
    );
  };

  return (
    <Dialog titleId={titleId} returnFocusId={openerId} onClose={onClose}>
      <form ref={ref} onSubmit={onSubmit} noValidate>
        <h3 id={titleId}>Edit {experiment.name}</h3>
        {safe ? (
          <p id={`${formId}-safe`}>
            While it {state}, only what keeps its results comparable changes here: names, notes,
            metrics, more coverage, a wider range and the weights. Its audience, layer and variants
            stay as they are.
          </p>
        ) : (
          <p className="muted">
            A draft draws nobody yet: every field here can change. Its audience, layer and variants
            are set when it is created; duplicate it to change them.
          </p>
        )}
        <div className="field" data-field="name">
          <label htmlFor={`${formId}-name`}>Name</label>
          <input
            id={`${formId}-name`}
            className="input"
            autoComplete="off"
            maxLength={120}
            value={form.name}
            aria-invalid={invalid('name')}
            aria-describedby={described('name')}
            onChange={(event) => update({ name: event.target.value })}
          />
          {line('name')}
        </div>
        <div className="field">
          <label htmlFor={`${formId}-hypothesis`}>Hypothesis</label>
          <textarea
            id={`${formId}-hypothesis`}
            className="input"
            rows={2}
            maxLength={1000}
            value={form.hypothesis}
            onChange={(event) => update({ hypothesis: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${formId}-notes`}>Notes</label>
          <textarea
            id={`${formId}-notes`}
            className="input"
            rows={2}
            maxLength={2000}
            value={form.notes}
            onChange={(event) => update({ notes: event.target.value })}
          />
        </div>
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
          {numberField({
            field: 'planned',
            label: 'Planned visitors per variant',
            value: form.plannedPerArm,
            min: 100,
            onValue: (plannedPerArm) => update({ plannedPerArm }),
          })}
        </div>
        <div className="row__fields">
          {numberField({
            field: 'coverage',
            label: 'Coverage (% of matching visitors who enter)',
            value: form.coverage,
            min: 1,
            max: 100,
            hint: safe ? 'It can only rise while it runs.' : undefined,
            onValue: (coverage) => update({ coverage }),
          })}
          {numberField({
            field: 'range',
            label: 'Range in the layer from (%)',
            value: form.range[0],
            min: 0,
            max: 100,
            hint: safe ? 'The range can only widen, containing the old one.' : undefined,
            onValue: (from) => update({ range: [from, form.range[1]] }),
          })}
          {numberField({
            field: 'range',
            input: 'range-to',
            label: 'Range in the layer to (%)',
            value: form.range[1],
            min: 0,
            max: 100,
            describedBy: 'range',
            onValue: (to) => update({ range: [form.range[0], to] }),
          })}
        </div>
        <fieldset
          className="field"
          data-field="weights"
          aria-describedby={described('weights', safe ? `${formId}-phase-hint` : undefined)}
        >
          <legend>Weights</legend>
          {safe ? (
            <p className="muted" id={`${formId}-phase-hint`}>
              Changing a weight starts a new phase: results are read per phase, and visitors already
              exposed keep their variant. Weight 0 stops drawing a variant.
            </p>
          ) : null}
          <div className="row__fields">
            {Object.entries(experiment.variants).map(([key, variant]) =>
              numberField({
                field: `weight-${key}`,
                label: `Weight of ${variant.name ?? key}${key === experiment.control ? ' (control)' : ''}`,
                value: form.weights[key] ?? 0,
                min: 0,
                onValue: (weight) => update({ weights: { ...form.weights, [key]: weight } }),
              }),
            )}
          </div>
          {line('weights')}
        </fieldset>
        {numberField({
          field: 'drain',
          label: 'Days the exposed keep their variant after it ends',
          value: form.drainDays,
          min: 0,
          max: 90,
          hint: 'After these days it can be archived, which frees its range.',
          onValue: (drainDays) => update({ drainDays }),
        })}
        {newPhase ? (
          <p className="notice notice--warning" role="status">
            These weights draw visitors in other shares: publishing starts a new phase. Results are
            read per phase; visitors already exposed keep their variant.
          </p>
        ) : null}
        {safe ? (
          <div className="notice">
            <p>
              To change anything else while it {state} (who it takes, its layer, its variants or
              what they change), stop it and duplicate it: the results before and after would
              otherwise be two experiments under one name.
            </p>
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                onClose();
                onDuplicate();
              }}
            >
              Duplicate {experiment.name} for a follow-up
            </button>
          </div>
        ) : null}
        <p className="muted">
          Confirming puts this in the draft and reviews it; it is live once you publish.
        </p>
        <div className="confirm__actions">
          <button type="submit" className="button button--primary">
            Put the changes to {experiment.name} in the draft
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
