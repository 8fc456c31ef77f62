import type {
  ExperimentDecision,
  ExperimentDocument,
  ExperimentsDocument,
} from '../../shared/config/experiments';
import type { ConfigDocument } from '../../shared/console-api/config';
import type { ExperimentStatus } from '../../shared/experiments';

/**
 * The edits of the `experiments` section, as pure functions like document-edits.ts: each returns a
 * new document. Phases, start and end instants and the decision's date and author are the
 * worker's to stamp on publish (worker/experiments/config/phases.ts): nothing here sets them,
 * beyond placeholders the publish replaces.
 */

function withSection(document: ConfigDocument, section: ExperimentsDocument): ConfigDocument {
  return { ...document, experiments: section };
}

function withExperiments(
  document: ConfigDocument,
  experiments: Record<string, ExperimentDocument>,
): ConfigDocument {
  return withSection(document, { ...document.experiments, experiments });
}

export function withExperimentAdded(
  document: ConfigDocument,
  id: string,
  experiment: ExperimentDocument,
): ConfigDocument {
  return withExperiments(document, { ...document.experiments.experiments, [id]: experiment });
}

/** The experiment `id` as `change` makes it; an id the draft no longer has changes nothing. */
function withExperimentChanged(
  document: ConfigDocument,
  id: string,
  change: (experiment: ExperimentDocument) => ExperimentDocument,
): ConfigDocument {
  const experiment = document.experiments.experiments[id];
  if (!experiment) return document;
  return withExperimentAdded(document, id, change(experiment));
}

/** An experiment taken out of the section: a draft, or one archived. */
export function withExperimentRemoved(document: ConfigDocument, id: string): ConfigDocument {
  const { [id]: _removed, ...rest } = document.experiments.experiments;
  return withExperiments(document, rest);
}

/** Start, pause, resume, stop or archive: only the status; the worker stamps the instants. */
export function withExperimentStatus(
  document: ConfigDocument,
  id: string,
  status: ExperimentStatus,
): ConfigDocument {
  return withExperimentChanged(document, id, (experiment) => ({ ...experiment, status }));
}

/**
 * The end of an experiment: its decision, and the status the validator expects of it (a variant
 * shipped: shipped; the control kept: stopped). Made a route's default, the variant is baked into
 * each route the experiment names (route-defaults.ts does that part).
 */
export function withDecision(
  document: ConfigDocument,
  id: string,
  decision: ExperimentDecision,
): ConfigDocument {
  const status: ExperimentStatus = decision.action === 'keep_control' ? 'stopped' : 'shipped';
  const { variant, reason, ...rest } = decision;
  const kept: ExperimentDecision = { ...rest };
  if (variant !== undefined && decision.action !== 'keep_control') kept.variant = variant;
  if (reason !== undefined && reason.trim() !== '') kept.reason = reason.trim();
  return withExperimentChanged(document, id, (experiment) => ({
    ...experiment,
    status,
    decision: kept,
  }));
}

/**
 * A follow-up of `id`: the same audience, layer, range and variants, a new id and seed (its
 * visitors are drawn afresh), a draft with nothing of the first one's run or decision.
 */
export function withDuplicate(
  document: ConfigDocument,
  id: string,
  copyId: string,
  seed: string,
): ConfigDocument {
  const experiment = document.experiments.experiments[id];
  if (!experiment) return document;
  const {
    phase: _phase,
    startedAt: _started,
    endedAt: _ended,
    decision: _decision,
    ...rest
  } = experiment;
  const copy: ExperimentDocument = {
    ...structuredClone(rest),
    name: `${experiment.name} (follow-up)`.slice(0, 120),
    status: 'draft',
    seed,
  };
  return withExperimentAdded(document, copyId, copy);
}

/** The alerts' Slack-compatible webhook; empty takes it out. */
export function withAlertsWebhook(document: ConfigDocument, webhook: string): ConfigDocument {
  const { alerts: _alerts, ...section } = document.experiments;
  const url = webhook.trim();
  return withSection(document, url === '' ? section : { ...section, alerts: { webhook: url } });
}

/** A fresh seed: 16 hex digits from the browser's random source, never reused. */
export function freshSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** An id not yet taken in `taken`: `base`, else `base-2`, `base-3`… */
export function freeId(base: string, taken: Readonly<Record<string, unknown>>): string {
  const stem = base.slice(0, 44) || 'experiment';
  if (!Object.hasOwn(taken, stem)) return stem;
  for (let n = 2; ; n++) {
    const candidate = `${stem}-${n}`;
    if (!Object.hasOwn(taken, candidate)) return candidate;
  }
}

/** A name as an experiment id: "Price test US" → "price-test-us". */
export function idOfName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 44);
}
