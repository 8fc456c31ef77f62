import { EXPERIMENT_RESULT_METRICS } from '../../../shared/console-api/experiment-results';
import { ProblemLine, problemAria } from '../../kit/field-problem';
import { countText, METRIC_NAMES } from '../../kit/result-texts';
import { useStore } from '../../kit/stores/atom';
import { $routeVisits } from '../../kit/stores/traffic';
import { type ExperimentForm, PRESET_DEFINITIONS, triggerSlotOf } from '../experiment-presets';
import { durationEstimate, durationText } from '../experiment-texts';
import { NumberField } from '../FormFields';
import { PlannedSample } from '../PlannedSample';
import type { CreateExperimentForm } from '../stores/create-experiment';

interface Props {
  id: string;
  form: CreateExperimentForm;
}

/** The primary metric and the planned sample per variant, with a calculator to plan it. */
export function MetricAndSample({ id, form }: Props) {
  const { preset, primary, plannedPerArm, layer } = useStore(form.$form);
  const problems = useStore(form.$problems);
  // A save offer test is judged on who stayed (its results' own table), not a funnel metric.
  const saveOffer = layer === 'subscriber';
  return (
    <>
      <div className="row__fields">
        {saveOffer ? null : (
          <div className="field">
            <label htmlFor={`${id}-metric`}>Primary metric of the new experiment</label>
            <select
              id={`${id}-metric`}
              value={primary}
              onChange={(event) =>
                form.update({ primary: event.target.value as ExperimentForm['primary'] })
              }
            >
              {EXPERIMENT_RESULT_METRICS.map((metric) => (
                <option key={metric} value={metric}>
                  {METRIC_NAMES[metric]}
                  {metric === PRESET_DEFINITIONS[preset].primary ? ' (suggested)' : ''}
                </option>
              ))}
            </select>
          </div>
        )}
        <NumberField
          id={`${id}-planned`}
          label={
            saveOffer
              ? 'Planned subscribers shown the offer per variant'
              : 'Planned visitors per variant'
          }
          field="planned"
          min={100}
          step={1}
          value={plannedPerArm}
          aria={problemAria(id, problems, 'planned')}
          onChange={(text) => form.update({ plannedPerArm: Number(text) })}
        >
          <ProblemLine id={id} problems={problems} field="planned" />
        </NumberField>
      </div>
      <PlannedSample
        saveOffer={saveOffer}
        onPlan={(planned) => form.update({ plannedPerArm: planned })}
      />
    </>
  );
}

/** The sample the form plans and, from the routes' recent visits, how long it would take. */
export function SampleEstimate({ form }: Pick<Props, 'form'>) {
  const current = useStore(form.$form);
  const visits = useStore($routeVisits);
  const { plannedPerArm } = current;
  const arms = current.changes.length + 1;
  // The routes' visits say nothing of how many subscribers cancel: no estimate for a save offer.
  const funnel = current.layer !== 'subscriber';
  const estimate =
    visits.kind === 'ready' && funnel
      ? durationEstimate({
          ...visits,
          trigger: triggerSlotOf(PRESET_DEFINITIONS[current.preset].change),
          routes: current.routes,
          range: [current.range[0] / 100, current.range[1] / 100],
          coverage: current.coverage / 100,
          arms,
          plannedPerArm,
        })
      : null;
  return (
    <>
      {current.preset === 'price' ? (
        <p className="muted">
          A price test is decided on mature net revenue: revenue after renewals, refunds and
          chargebacks, of visitors exposed at least the longest intro plus 3 days ago. Until that
          sample reaches {countText(plannedPerArm)} per variant, its results show no verdict.
        </p>
      ) : null}
      <p className="estimate" aria-live="polite">
        Planned sample: {countText(plannedPerArm)} {funnel ? 'visitors' : 'subscribers'} in each of{' '}
        {arms} variants ({countText(plannedPerArm * arms)} in all).{' '}
        {visits.kind === 'ready' && funnel ? durationText(estimate, visits.days) : null}
      </p>
    </>
  );
}
