import { type FormEvent, useId, useState } from 'react';
import type { VariantChange } from '../../shared/config/experiments';
import type { ConfigDocument, ScreenChoice } from '../../shared/console-api/config';
import { EXPERIMENT_RESULT_METRICS } from '../../shared/console-api/experiment-results';
import { LAYERS, type Layer } from '../../shared/experiments';
import { freeId, freshSeed, idOfName } from '../experiment-edits';
import {
  changesNothing,
  DEFAULT_PLANNED_PER_ARM,
  type ExperimentForm,
  experimentOfForm,
  PRESET_DEFINITIONS,
  PRESETS,
  type Preset,
  triggerSlotOf,
  VARIANT_KEYS,
} from '../experiment-presets';
import { durationEstimate, durationText } from '../experiment-texts';
import { fitsFree, freeRanges, takenRanges, widestFree } from '../layer-space';
import { countText, METRIC_NAMES } from '../result-texts';
import { useStore } from '../stores/atom';
import { addExperiment } from '../stores/draft';
import { $experimentsStatus, EXPERIMENTS_STATUS_ID } from '../stores/experiments';
import { $routeVisits } from '../stores/traffic';
import { ChangePicker } from './ChangePicker';
import { PlannedSample } from './PlannedSample';

const percentText = (share: number) => `${Math.round(share * 1000) / 10}`;

/** The widest free stretch of a layer, in percent; [0, 0] when it is full. */
function freePercent(document: ConfigDocument, layer: Layer): [number, number] {
  const free = widestFree(takenRanges(document, layer, new Date()));
  return free ? [Number(percentText(free[0])), Number(percentText(free[1]))] : [0, 0];
}

function formOf(preset: Preset, document: ConfigDocument): ExperimentForm {
  const definition = PRESET_DEFINITIONS[preset];
  return {
    preset,
    name: '',
    hypothesis: '',
    layer: definition.layer,
    routes: [],
    audience: '',
    coverage: 100,
    range: freePercent(document, definition.layer),
    changes: [{}],
    primary: definition.primary,
    plannedPerArm: DEFAULT_PLANNED_PER_ARM,
  };
}

type Problems = Partial<Record<string, string>>;

function problemsOf(form: ExperimentForm, document: ConfigDocument): Problems {
  const problems: Problems = {};
  if (form.name.trim() === '') problems.name = 'Give the experiment a name.';
  form.changes.forEach((change, index) => {
    if (changesNothing(change))
      problems[`change-${index}`] = `Choose what variant ${VARIANT_KEYS[index + 1]} changes.`;
  });
  if (!(form.coverage >= 1 && form.coverage <= 100))
    problems.coverage = 'Enter a share from 1 to 100%.';
  const [from, to] = form.range;
  const taken = takenRanges(document, form.layer, new Date());
  if (!(from >= 0 && to <= 100 && from < to))
    problems.range = 'Enter a stretch from 0 to 100%, its start below its end.';
  else if (!fitsFree(taken, from / 100, to / 100))
    problems.range = `That stretch is taken in layer ${form.layer}: choose one within its free space.`;
  if (!(Number.isInteger(form.plannedPerArm) && form.plannedPerArm >= 100))
    problems.planned = 'Enter a whole number, 100 or more.';
  return problems;
}

/**
 * A new experiment from a preset: the preset fills the layer, the kind of change, the metric and a
 * sample; the marketer names it, says who enters, and picks what each variant changes. It goes
 * into the draft as a draft experiment, with equal weights and a fresh seed.
 */
export function CreateExperiment({
  document,
  screens,
}: {
  document: ConfigDocument;
  screens: readonly ScreenChoice[];
}) {
  const id = useId();
  const [form, setForm] = useState<ExperimentForm>(() => formOf('price', document));
  const [problems, setProblems] = useState<Problems>({});
  const visits = useStore($routeVisits);
  const definition = PRESET_DEFINITIONS[form.preset];
  const routes = document.routing.routes.map((route) => route.id);
  const audiences = Object.keys(document.routing.audiences);
  const flows = Object.keys(document.flows.flows);
  const free = freeRanges(takenRanges(document, form.layer, new Date()));
  const update = (fields: Partial<ExperimentForm>) => setForm((was) => ({ ...was, ...fields }));
  const arms = form.changes.length + 1;
  const estimate =
    visits.kind === 'ready'
      ? durationEstimate({
          ...visits,
          trigger: triggerSlotOf(definition.change),
          routes: form.routes,
          range: [form.range[0] / 100, form.range[1] / 100],
          coverage: form.coverage / 100,
          arms,
          plannedPerArm: form.plannedPerArm,
        })
      : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = problemsOf(form, document);
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) {
      const field = event.currentTarget.querySelector<HTMLElement>(
        `[data-field="${first}"] input, [data-field="${first}"] select`,
      );
      field?.focus();
      return;
    }
    const experimentId = freeId(
      idOfName(form.name) || form.preset,
      document.experiments.experiments,
    );
    addExperiment(experimentId, experimentOfForm(form, freshSeed()));
    $experimentsStatus.set(
      `Created the draft experiment ${experimentId}. Start it from the list, or review and publish it as a draft.`,
    );
    setForm(formOf(form.preset, document));
    window.document.getElementById(EXPERIMENTS_STATUS_ID)?.focus();
  }

  const problem = (key: string) => problems[key] ?? null;
  const line = (key: string) =>
    problems[key] ? (
      <p className="field-problem" id={`${id}-${key}-problem`}>
        {problems[key]}
      </p>
    ) : null;
  const describedBy = (key: string, hint?: string) =>
    [hint, problems[key] ? `${id}-${key}-problem` : undefined].filter(Boolean).join(' ') ||
    undefined;

  return (
    <form className="block add-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Create an experiment</h3>
      <div className="row__fields">
        <div className="field">
          <label htmlFor={`${id}-preset`}>What to test</label>
          <select
            id={`${id}-preset`}
            value={form.preset}
            onChange={(event) => {
              setForm(formOf(event.target.value as Preset, document));
              setProblems({});
            }}
          >
            {PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {PRESET_DEFINITIONS[preset].label}
              </option>
            ))}
          </select>
        </div>
        <div className="field" data-field="name">
          <label htmlFor={`${id}-name`}>Experiment name</label>
          <input
            id={`${id}-name`}
            className="input"
            autoComplete="off"
            maxLength={120}
            value={form.name}
            aria-invalid={Boolean(problem('name')) || undefined}
            aria-describedby={describedBy('name')}
            onChange={(event) => update({ name: event.target.value })}
          />
          {line('name')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-layer`}>Layer</label>
          <select
            id={`${id}-layer`}
            value={form.layer}
            aria-describedby={`${id}-layer-hint`}
            onChange={(event) => {
              const layer = event.target.value as Layer;
              update({ layer, range: freePercent(document, layer) });
            }}
          >
            {LAYERS.map((layer) => (
              <option key={layer} value={layer}>
                {layer}
                {layer === definition.layer ? ' (suggested)' : ''}
              </option>
            ))}
          </select>
          <p className="muted field__after" id={`${id}-layer-hint`}>
            Free in layer {form.layer}:{' '}
            {free.length === 0
              ? 'nothing'
              : free.map(([a, b]) => `${percentText(a)}–${percentText(b)}%`).join(', ')}
            .
          </p>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-hypothesis`}>Hypothesis</label>
        <textarea
          id={`${id}-hypothesis`}
          className="input"
          rows={2}
          maxLength={1000}
          placeholder={definition.hypothesis}
          value={form.hypothesis}
          onChange={(event) => update({ hypothesis: event.target.value })}
        />
      </div>
      <fieldset className="field">
        <legend>Routes it takes visitors from (none checked: every route)</legend>
        {routes.map((route) => (
          <label key={route} htmlFor={`${id}-route-${route}`} className="check">
            <input
              id={`${id}-route-${route}`}
              type="checkbox"
              checked={form.routes.includes(route)}
              onChange={(event) =>
                update({
                  routes: event.target.checked
                    ? [...form.routes, route]
                    : form.routes.filter((each) => each !== route),
                })
              }
            />{' '}
            {route}
          </label>
        ))}
      </fieldset>
      <div className="row__fields">
        <div className="field">
          <label htmlFor={`${id}-audience`}>Saved audience (optional)</label>
          <select
            id={`${id}-audience`}
            value={form.audience}
            onChange={(event) => update({ audience: event.target.value })}
          >
            <option value="">None: everyone on its routes</option>
            {audiences.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field" data-field="coverage">
          <label htmlFor={`${id}-coverage`}>Coverage (% of matching visitors who enter)</label>
          <input
            id={`${id}-coverage`}
            className="input input--number"
            type="number"
            min={1}
            max={100}
            value={form.coverage}
            aria-invalid={Boolean(problem('coverage')) || undefined}
            aria-describedby={describedBy('coverage')}
            onChange={(event) => update({ coverage: Number(event.target.value) })}
          />
          {line('coverage')}
        </div>
        <div className="field" data-field="range">
          <label htmlFor={`${id}-from`}>Range in the layer from (%)</label>
          <input
            id={`${id}-from`}
            className="input input--number"
            type="number"
            min={0}
            max={100}
            value={form.range[0]}
            aria-invalid={Boolean(problem('range')) || undefined}
            aria-describedby={describedBy('range')}
            onChange={(event) => update({ range: [Number(event.target.value), form.range[1]] })}
          />
          {line('range')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>Range in the layer to (%)</label>
          <input
            id={`${id}-to`}
            className="input input--number"
            type="number"
            min={0}
            max={100}
            value={form.range[1]}
            aria-invalid={Boolean(problem('range')) || undefined}
            onChange={(event) => update({ range: [form.range[0], Number(event.target.value)] })}
          />
        </div>
      </div>
      <h4>Variants</h4>
      <p className="muted">
        Variant a is the control: the route as it is. Every variant gets the same weight.
      </p>
      <ol className="rows" aria-label="Variants of the new experiment">
        <li className="row">
          <p>
            <strong>a</strong> (control): changes nothing.
          </p>
        </li>
        {form.changes.map((change, index) => {
          const key = VARIANT_KEYS[index + 1] ?? String(index + 1);
          const setChange = (next: VariantChange) =>
            update({ changes: form.changes.map((each, at) => (at === index ? next : each)) });
          return (
            <li className="row" key={key} data-field={`change-${index}`}>
              <p>
                <strong>{key}</strong>
              </p>
              <ChangePicker
                id={`${id}-change-${key}`}
                variant={key}
                kind={definition.change}
                change={change}
                flows={flows}
                screens={screens}
                problem={problem(`change-${index}`)}
                onChange={setChange}
              />
              {index > 0 ? (
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => update({ changes: form.changes.filter((_, at) => at !== index) })}
                >
                  Remove variant {key}
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      {form.changes.length < VARIANT_KEYS.length - 1 ? (
        <p>
          <button
            type="button"
            className="button button--small"
            onClick={() => update({ changes: [...form.changes, {}] })}
          >
            Add a variant
          </button>
        </p>
      ) : null}
      <div className="row__fields">
        <div className="field">
          <label htmlFor={`${id}-metric`}>Primary metric of the new experiment</label>
          <select
            id={`${id}-metric`}
            value={form.primary}
            onChange={(event) =>
              update({ primary: event.target.value as ExperimentForm['primary'] })
            }
          >
            {EXPERIMENT_RESULT_METRICS.map((metric) => (
              <option key={metric} value={metric}>
                {METRIC_NAMES[metric]}
                {metric === definition.primary ? ' (suggested)' : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field" data-field="planned">
          <label htmlFor={`${id}-planned`}>Planned visitors per variant</label>
          <input
            id={`${id}-planned`}
            className="input input--number"
            type="number"
            min={100}
            step={1}
            value={form.plannedPerArm}
            aria-invalid={Boolean(problem('planned')) || undefined}
            aria-describedby={describedBy('planned')}
            onChange={(event) => update({ plannedPerArm: Number(event.target.value) })}
          />
          {line('planned')}
        </div>
      </div>
      <PlannedSample onPlan={(plannedPerArm) => update({ plannedPerArm })} />
      {form.preset === 'price' ? (
        <p className="muted">
          A price test is decided on mature net revenue: revenue after renewals, refunds and
          chargebacks, of visitors exposed at least the longest intro plus 3 days ago. Until that
          sample reaches {countText(form.plannedPerArm)} per variant, its results show no verdict.
        </p>
      ) : null}
      <p className="estimate" aria-live="polite">
        Planned sample: {countText(form.plannedPerArm)} visitors in each of {arms} variants (
        {countText(form.plannedPerArm * arms)} in all).{' '}
        {visits.kind === 'ready' ? durationText(estimate, visits.days) : null}
      </p>
      <p>
        <button type="submit" className="button button--primary">
          Create draft experiment
        </button>
      </p>
    </form>
  );
}
