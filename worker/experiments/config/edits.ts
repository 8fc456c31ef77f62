import { WHOLE_LAYER } from '../../../shared/audiences-overlap';
import type {
  ExperimentAudience,
  ExperimentDocument,
  ExperimentsDocument,
  VariantChange,
} from '../../../shared/config/experiments';
import type { DocumentIssue } from '../../../shared/config/parse-document';
import type { AudienceCondition } from '../../../shared/config/routing';
import { type ExperimentStatus, LAYERS } from '../../../shared/experiments';

/**
 * What a publish may change of an experiment that is live (docs/experiments.md). Visitors are
 * assigned by a hash of their id with the experiment's seed, in its layer's buckets, and stay
 * with the variant they were exposed to; results compare the arms of one phase. So while it runs
 * (or is paused, and may resume) only what keeps the arms comparable may change: names, notes,
 * metrics, the days of drain, more coverage, a wider range, a wider audience, and the weights,
 * which start a new phase (phases.ts). Any other change would make the visitors counted before
 * and after it two different experiments under one name: the message offers "stop it and
 * duplicate it", which starts a new one. Seed and layer never change once it has run at all, or
 * the visitors still keeping its variants would be drawn again; nor does a layer's seed while an
 * experiment runs in part of it.
 */

/** The statuses each status may move to in one publish. */
const NEXT_STATUSES: Record<ExperimentStatus, readonly ExperimentStatus[]> = {
  draft: ['running', 'archived'],
  running: ['paused', 'stopped', 'shipped'],
  paused: ['running', 'stopped', 'shipped'],
  // A stopped experiment's results can still be read, then its winner shipped.
  stopped: ['shipped', 'archived'],
  shipped: ['archived'],
  archived: [],
};

/** What to do instead of a status change that is refused. */
function transitionRefusal(from: ExperimentStatus, to: ExperimentStatus): string {
  const move = `cannot go from ${from} to ${to}`;
  if (to === 'draft') return `${move}: it has run; duplicate it to draft a new one`;
  if (from === 'archived') return `${move}: an archived experiment stays archived; duplicate it`;
  if (from === 'draft') return `${move}: a draft starts by running`;
  if (from === 'stopped' || from === 'shipped')
    return `${move}: an ended experiment does not run again; duplicate it to test again`;
  return `${move}: stop it or ship it first`;
}

function statusIssue(
  path: string,
  from: ExperimentStatus,
  to: ExperimentStatus,
): DocumentIssue | null {
  if (from === to || NEXT_STATUSES[from].includes(to)) return null;
  return { path: `${path}.status`, message: transitionRefusal(from, to) };
}

/** A new experiment starts as a draft or running: the other statuses follow a run. */
export function newExperimentIssue(path: string, status: ExperimentStatus): DocumentIssue | null {
  if (status === 'draft' || status === 'running') return null;
  return {
    path: `${path}.status`,
    message: `a new experiment cannot start ${status}: publish it as a draft or running`,
  };
}

/** An experiment taken out of the document while visitors are being drawn into it. */
export function removalIssue(path: string, live: ExperimentDocument): DocumentIssue | null {
  if (live.status !== 'running' && live.status !== 'paused') return null;
  return {
    path,
    message: `is ${live.status}: stop it (its exposed visitors keep their variant for its drain days), then archive it, before deleting it`,
  };
}

/**
 * A layer's seed places each visitor in its buckets: changed, the visitors not yet exposed to an
 * experiment holding part of the layer would move in or out of its range mid-phase. One holding
 * the whole layer keeps every visitor, whatever the seed.
 */
export function layerSeedIssues(
  next: ExperimentsDocument,
  live: ExperimentsDocument,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const layer of LAYERS) {
    if ((next.layers?.[layer]?.seed ?? layer) === (live.layers?.[layer]?.seed ?? layer)) continue;
    const holding = Object.entries(live.experiments)
      .filter(([, experiment]) => experiment.layer === layer)
      .filter(([, experiment]) => experiment.status === 'running' || experiment.status === 'paused')
      .filter(([, { range = WHOLE_LAYER }]) => range[0] > 0 || range[1] < 1)
      .map(([id]) => `"${id}"`);
    if (holding.length === 0) continue;
    const one = holding.length === 1;
    issues.push({
      path: `experiments.layers.${layer}.seed`,
      message: `cannot change while ${holding.join(', ')} ${one ? 'holds' : 'hold'} part of layer "${layer}": visitors not yet exposed would move in or out of ${one ? 'its' : 'their'} range; stop ${one ? 'it' : 'them'} first`,
    });
  }
  return issues;
}

/** Equal as JSON, whatever the order of object keys (a console may write them in any order). */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

const sameChange = (a: VariantChange, b: VariantChange) => sameValue(a, b);

/** Every edit of a live experiment that is not allowed, each at its field. */
export function editIssues(
  path: string,
  next: ExperimentDocument,
  live: ExperimentDocument,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const status = statusIssue(path, live.status, next.status);
  if (status) issues.push(status);
  if (live.status === 'draft') return issues;

  const fixed = (field: 'seed' | 'layer', why: string) => {
    if (next[field] !== live[field])
      issues.push({
        path: `${path}.${field}`,
        message: `cannot change once it has run (${why}): duplicate it to change this`,
      });
  };
  fixed('seed', 'its visitors would be drawn again');
  fixed('layer', `its visitors hold buckets of layer "${live.layer}"`);
  if (live.status !== 'running' && live.status !== 'paused') return issues;

  const state = live.status === 'running' ? 'while it runs' : 'while it is paused';
  const refuse = (field: string, what: string) =>
    issues.push({
      path: `${path}${field}`,
      message: `${what} ${state}: stop it and duplicate it to change this`,
    });

  if (next.control !== live.control) refuse('.control', 'the control cannot change');
  for (const [key, variant] of Object.entries(live.variants)) {
    const now = next.variants[key];
    if (!Object.hasOwn(next.variants, key) || now === undefined)
      refuse(`.variants.${key}`, `variant "${key}" cannot be removed (weight 0 stops drawing it)`);
    else if (!sameChange(now.change, variant.change))
      refuse(`.variants.${key}.change`, `what variant "${key}" changes cannot change`);
  }
  for (const key of Object.keys(next.variants)) {
    if (!Object.hasOwn(live.variants, key))
      refuse(`.variants.${key}`, `variant "${key}" cannot be added`);
  }
  const [from, to] = live.range ?? WHOLE_LAYER;
  const [nextFrom, nextTo] = next.range ?? WHOLE_LAYER;
  if (nextFrom > from || nextTo < to)
    refuse('.range', `the range can only widen (to contain [${from}, ${to}])`);
  if (next.coverage < live.coverage)
    refuse('.coverage', `the coverage can only rise (from ${live.coverage})`);
  for (const problem of audienceNarrowing(live.audience, next.audience))
    refuse(`.audience${problem.field}`, problem.what);
  return issues;
}

/** Where a new audience may leave out a visitor the old one took: each a field and why. */
function audienceNarrowing(
  live: ExperimentAudience,
  next: ExperimentAudience,
): { field: string; what: string }[] {
  const problems: { field: string; what: string }[] = [];
  if (next.routes !== undefined) {
    if (live.routes === undefined)
      problems.push({
        field: '.routes',
        what: 'routes cannot be named (that narrows it from every route)',
      });
    else
      for (const route of live.routes)
        if (!next.routes.includes(route))
          problems.push({ field: '.routes', what: `route "${route}" cannot be taken out` });
  }
  if (next.audience !== undefined && next.audience !== live.audience)
    problems.push({
      field: '.audience',
      what: 'the saved audience can only be removed, not set or changed,',
    });
  if (next.groups !== undefined && !groupsWiden(live.groups, next.groups))
    problems.push({
      field: '.groups',
      what: 'the conditions can only be loosened (a condition removed, a value added to an "in" list), never tightened,',
    });
  return problems;
}

/**
 * True when every visitor the old groups take, the new ones take too: each old group implies a
 * new one, that is, each condition of that new group follows from one of the old group's.
 */
function groupsWiden(
  live: readonly (readonly AudienceCondition[])[] | undefined,
  next: readonly (readonly AudienceCondition[])[],
): boolean {
  if (live === undefined) return false;
  return live.every((old) =>
    next.some((group) => group.every((condition) => old.some((c) => implies(c, condition)))),
  );
}

const valuesOf = (condition: AudienceCondition) =>
  new Set(
    condition.values.map((value) => (typeof value === 'string' ? value.toLowerCase() : value)),
  );

const within = (a: Set<string | number>, b: Set<string | number>) =>
  [...a].every((value) => b.has(value));

/** True when any visitor meeting `a` meets `b` (router semantics, worker/routing/router.ts). */
function implies(a: AudienceCondition, b: AudienceCondition): boolean {
  if (a.attribute !== b.attribute) return false;
  const first = valuesOf(a);
  const second = valuesOf(b);
  const member = (operator: string) => operator === 'in' || operator === 'equals';
  if (member(a.operator) && member(b.operator)) return within(first, second);
  if (member(a.operator) && b.operator === 'not_in')
    return [...first].every((value) => !second.has(value));
  if (a.operator === b.operator) {
    // not_in: excluding fewer values takes more visitors; a text matched by part: more parts.
    return a.operator === 'not_in' ? within(second, first) : within(first, second);
  }
  return false;
}
