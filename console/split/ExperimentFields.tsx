import { useEffect, useState } from 'react';
import type { ExperimentSettings } from '../../shared/config/split';
import { RESULT_METRICS, type ResultMetric } from '../../shared/console-api/results';
import { FieldMessages, useFieldErrors } from '../kit/FieldMessages';
import { FieldProblem } from '../kit/field-problem';
import { METRIC_NAMES } from '../kit/result-texts';
import { setExperiment } from '../kit/stores/draft';

const METRIC_PATH = 'split.experiment.primaryMetric';
const PLANNED_PATH = 'split.experiment.plannedPerArm';

/** The worker's own floor (shared/config/split.ts): fewer could never earn a verdict. */
const MIN_PLANNED = 100;

/** What the planned-sample field's text stands for: nothing when empty (the default applies). */
function parsePlanned(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

function PlannedInput({ planned }: { planned: number | undefined }) {
  const id = 'experiment:planned';
  const own = useFieldErrors(PLANNED_PATH);
  const [text, setText] = useState(planned === undefined ? '' : String(planned));
  // Discarded edits show in the field.
  useEffect(() => {
    setText((typed) =>
      Object.is(parsePlanned(typed), planned)
        ? typed
        : planned === undefined
          ? ''
          : String(planned),
    );
  }, [planned]);
  const typed = parsePlanned(text);
  // Said at once; the draft still holds what is typed, so the review refuses it beside the field.
  const problem =
    typed === undefined || (Number.isInteger(typed) && typed >= MIN_PLANNED)
      ? null
      : `Enter a whole number, ${MIN_PLANNED} or more, or leave it empty.`;
  const describedBy = [`${id}:hint`, own.describedBy, problem ? `${id}:problem` : undefined]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>Planned visitors per variant (optional)</label>
      <input
        id={id}
        className="input input--number"
        type="number"
        inputMode="numeric"
        min={MIN_PLANNED}
        step={1}
        value={text}
        aria-invalid={own.invalid || problem !== null || undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          setText(event.target.value);
          setExperiment({ plannedPerArm: parsePlanned(event.target.value) });
        }}
      />
      <p className="muted field__after" id={`${id}:hint`}>
        How many visitors each variant should have when you decide: the intervals are tightest
        there. Set it when a phase starts: changed later, it re-tunes intervals on data already
        seen, which weakens them. Empty: the worker's default.
      </p>
      <FieldProblem id={`${id}:problem`} problem={problem} />
      <FieldMessages path={PLANNED_PATH} />
    </div>
  );
}

/** How the experiment's results are read: its primary metric and its planned sample per variant. */
export function ExperimentFields({ settings }: { settings: ExperimentSettings | undefined }) {
  const metricId = 'experiment:metric';
  const metricField = useFieldErrors(METRIC_PATH);
  return (
    <div className="block">
      <h3>How results are read</h3>
      <p className="muted">
        The primary metric is the one the experiment is decided on; the others are shown as
        secondary. Changing either starts no new phase.
      </p>
      <div className="row__fields">
        <div className="field">
          <label htmlFor={metricId}>Primary metric</label>
          <select
            id={metricId}
            value={settings?.primaryMetric ?? 'purchase'}
            aria-invalid={metricField.invalid || undefined}
            aria-describedby={metricField.describedBy}
            onChange={(event) =>
              setExperiment({ primaryMetric: event.target.value as ResultMetric })
            }
          >
            {RESULT_METRICS.map((metric) => (
              <option key={metric} value={metric}>
                {METRIC_NAMES[metric]}
                {metric === 'purchase' ? ' (the default)' : ''}
              </option>
            ))}
          </select>
          <FieldMessages path={METRIC_PATH} />
        </div>
        <PlannedInput planned={settings?.plannedPerArm} />
      </div>
    </div>
  );
}
