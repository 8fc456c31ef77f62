import { type FormEvent, useId, useState } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import type { HarmOverrides, VitalsShifts } from '../../shared/console-api/simulation';
import { FailureNotice } from '../kit/FailureNotice';
import { StatusLine } from '../kit/StatusLine';
import { useStore } from '../kit/stores/atom';
import { $live } from '../kit/stores/live';
import { $testTraffic, sendTestTraffic } from './stores/test-traffic';

/** Visitors a send may ask for: enough for a guardrail to judge, few enough for a minute. */
const VISITORS = { min: 100, max: 20_000, initial: 2_000 };

/** What each variant's visitors meet, in percent, as the fields read. */
interface VariantHarm {
  declines: string;
  errors: string;
  slower: string;
}

const NO_HARM: VariantHarm = { declines: '0', errors: '0', slower: '0' };

/** Each variant's fields, with their labels. */
const HARM_FIELDS: readonly (readonly [keyof VariantHarm, string])[] = [
  ['declines', 'Declined payments, % of those reaching the checkout'],
  ['errors', 'Failing page scripts, % of visitors'],
  ['slower', 'Pages slower, % (Largest Contentful Paint)'],
];

/**
 * The running and paused experiments, which expose visitors (the simulator refuses others): each
 * id, its variants, and its name as the option says it ("Price US (price-us)").
 */
function exposing(
  experiments: Record<string, ExperimentDocument>,
): [id: string, variants: string[], label: string][] {
  return Object.entries(experiments)
    .filter(([, experiment]) => experiment.status === 'running' || experiment.status === 'paused')
    .map(([id, experiment]) => [
      id,
      Object.keys(experiment.variants),
      experiment.name ? `${experiment.name} (${id})` : id,
    ]);
}

/** A percent field's share (0.6 for "60"); null when it is not a number from 0 to `max`. */
function percentOf(text: string, max: number): number | null {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= max ? value : null;
}

/** The request the fields make, or what is wrong with them. */
function requestOf(
  variants: readonly string[],
  harms: Record<string, VariantHarm>,
): { harm: HarmOverrides; vitals: VitalsShifts } | { problem: string } {
  const harm: HarmOverrides = {};
  const vitals: VitalsShifts = {};
  for (const variant of variants) {
    const given = harms[variant] ?? NO_HARM;
    const declines = percentOf(given.declines, 100);
    const errors = percentOf(given.errors, 100);
    const slower = percentOf(given.slower, 300);
    if (declines === null || errors === null || slower === null) {
      return {
        problem: `Variant ${variant}: each share is a number from 0 to 100 (slower pages: 0 to 300).`,
      };
    }
    if (declines > 0 || errors > 0)
      harm[variant] = { declines: declines / 100, errors: errors / 100 };
    if (slower > 0) vitals[variant] = { lcp: slower };
  }
  return { harm, vitals };
}

/**
 * In development and on staging (ConsoleState.simulation): simulated visitors sent to a running
 * experiment through the worker's simulator, each variant's with the declined payments, failing
 * scripts and slower pages asked for; with Check the guardrails now, a guarded ramp's rollback is rehearsed
 * in a minute from the console alone (docs/experiments.md, "Guarded ramps").
 */
export function TestTraffic() {
  const live = useStore($live);
  const traffic = useStore($testTraffic);
  const experiments =
    live.kind === 'ready' ? exposing(live.state.live.experiments.experiments) : [];
  const [chosen, choose] = useState<string>('');
  const [visitors, setVisitors] = useState(String(VISITORS.initial));
  const [harms, setHarms] = useState<Record<string, VariantHarm>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const ids = useId();
  const experiment = experiments.find(([id]) => id === chosen) ?? experiments[0];
  if (experiment === undefined) {
    return <p className="muted">Start an experiment to send it test traffic.</p>;
  }
  const [id, variants] = experiment;
  const setHarm = (variant: string, field: keyof VariantHarm, value: string) =>
    setHarms((all) => ({ ...all, [variant]: { ...(all[variant] ?? NO_HARM), [field]: value } }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const count = Number(visitors);
    if (!Number.isInteger(count) || count < VISITORS.min || count > VISITORS.max) {
      setProblem(`Visitors: a whole number from ${VISITORS.min} to ${VISITORS.max}.`);
      return;
    }
    const request = requestOf(variants, harms);
    if ('problem' in request) {
      setProblem(request.problem);
      return;
    }
    setProblem(null);
    void sendTestTraffic({ experiment: id, visitors: count, ...request });
  };
  return (
    <form className="block" aria-labelledby="test-traffic-title" onSubmit={submit} noValidate>
      <h3 id="test-traffic-title">Send test traffic</h3>
      <p className="muted">
        Simulated visitors, dated over the last day and written as real ones are: what each
        variant's visitors meet is yours to set. Only under npm start and on staging.
      </p>
      <div className="row__fields">
        <div className="field">
          <label htmlFor={`${ids}-experiment`}>Experiment</label>
          <select
            id={`${ids}-experiment`}
            value={id}
            onChange={(event) => choose(event.target.value)}
          >
            {experiments.map(([key, , label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <NumberInput
          id={`${ids}-visitors`}
          label="Visitors"
          value={visitors}
          onChange={setVisitors}
        />
      </div>
      {variants.map((variant) => (
        <VariantFields
          key={`${id}:${variant}`}
          id={`${ids}-${variant}`}
          variant={variant}
          harm={harms[variant] ?? NO_HARM}
          onChange={(field, value) => setHarm(variant, field, value)}
        />
      ))}
      {problem === null ? null : <FailureNotice message={problem} />}
      <div className="actions">
        <button type="submit" className="button">
          Send test traffic
        </button>
      </div>
      <TrafficStatus traffic={traffic} />
    </form>
  );
}

/** What one variant's visitors meet, in a group named for it. */
function VariantFields(props: {
  id: string;
  variant: string;
  harm: VariantHarm;
  onChange: (field: keyof VariantHarm, value: string) => void;
}) {
  return (
    <fieldset className="row__fields">
      <legend>Variant {props.variant}</legend>
      {HARM_FIELDS.map(([field, label]) => (
        <NumberInput
          key={field}
          id={`${props.id}-${field}`}
          label={label}
          value={props.harm[field]}
          onChange={(value) => props.onChange(field, value)}
        />
      ))}
    </fieldset>
  );
}

/** A labelled number field; the text is read when the form is sent. */
function NumberInput(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className="input input--number"
        type="number"
        inputMode="decimal"
        min={0}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

function TrafficStatus({ traffic }: { traffic: ReturnType<typeof $testTraffic.get> }) {
  if (traffic === null) return null;
  if (traffic.kind === 'failed') return <FailureNotice message={traffic.text} />;
  const text =
    traffic.kind === 'sending'
      ? `Sending test visitors… ${traffic.sent.toLocaleString('en-US')} of ${traffic.of.toLocaleString('en-US')}`
      : traffic.text;
  return <StatusLine id="test-traffic-status" status={text} />;
}
