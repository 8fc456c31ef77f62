import type { ExperimentsDocument } from '../../../shared/config/experiments';
import type { HoldoutDocument, HoldoutStatus } from '../../../shared/config/holdout';
import type { DocumentIssue } from '../../../shared/config/parse-document';
import type { RouteDocument, RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';
import { coversExperiment } from './holdout';

/**
 * What a publish may do to the holdout (docs/experiments.md, "The holdout"). Who is held out is a
 * hash of the visitor id with its seed, cut at its percent: changing either while it holds
 * visitors back would move visitors between the groups, and its start says which experiments it
 * covers; so while it runs or is analysed those stay as they are, and a new holdout takes a new
 * seed. It moves running → analysis → ended (or running → ended), never back; removing it takes
 * ending it first. A new one may not start before an experiment already running, which its
 * visitors may have been exposed to. And a covered experiment ships rolled out, not as a route's
 * default: that would change the route for the held out too.
 */

const PATH = 'experiments.holdout';

const NEXT: Record<HoldoutStatus, readonly HoldoutStatus[]> = {
  running: ['analysis', 'ended'],
  analysis: ['ended'],
  ended: [],
};

/**
 * The refusals of `doc`'s holdout, against the live one when given (absent: nothing published,
 * or the document checked alone).
 */
export function holdoutIssues(
  doc: ExperimentsDocument,
  live?: ExperimentsDocument | null,
): DocumentIssue[] {
  const was = live?.holdout;
  const now = doc.holdout;
  if (live === undefined) return now === undefined ? [] : routeDefaultIssues(doc, now);
  const issues: DocumentIssue[] = [];
  const holding = was !== undefined && was.status !== 'ended';
  if (now === undefined) {
    if (holding)
      issues.push({ path: PATH, message: 'cannot be removed while it runs: end it first' });
    return issues;
  }
  if (holding && was.seed === now.seed) issues.push(...runningEdits(was, now));
  else if (holding)
    issues.push({
      path: `${PATH}.seed`,
      message: `cannot change while the holdout runs (it would move visitors between the groups): end it, then start a new one`,
    });
  else issues.push(...newHoldoutIssues(doc, now, was));
  issues.push(...routeDefaultIssues(doc, now));
  return issues;
}

/** What may not change of a holdout running or analysed. */
function runningEdits(was: HoldoutDocument, now: HoldoutDocument): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  if (was.percent !== now.percent)
    issues.push({
      path: `${PATH}.percent`,
      message: `cannot change from ${was.percent} to ${now.percent} while the holdout runs (it would move visitors between the groups): end it, then start a new one with a new seed`,
    });
  for (const field of ['startedAt', 'analysisFrom'] as const) {
    if (was[field] !== undefined && was[field] !== now[field])
      issues.push({
        path: `${PATH}.${field}`,
        message: `cannot change once set (it says which experiments the holdout covers)`,
      });
  }
  if (was.status !== now.status && !NEXT[was.status].includes(now.status))
    issues.push({
      path: `${PATH}.status`,
      message: `cannot go from ${was.status} to ${now.status}: a holdout moves running → analysis → ended`,
    });
  return issues;
}

/** A holdout started in this publish: a new seed, running, after every experiment running. */
function newHoldoutIssues(
  doc: ExperimentsDocument,
  now: HoldoutDocument,
  was: HoldoutDocument | undefined,
): DocumentIssue[] {
  if (was !== undefined && JSON.stringify(was) === JSON.stringify(now)) return [];
  const issues: DocumentIssue[] = [];
  if (now.status !== 'running')
    issues.push({ path: `${PATH}.status`, message: 'a new holdout starts running' });
  if (was !== undefined && was.seed === now.seed)
    issues.push({
      path: `${PATH}.seed`,
      message: `a new holdout takes a new seed: with "${now.seed}" it would hold out the same visitors again`,
    });
  for (const [id, experiment] of Object.entries(doc.experiments)) {
    const drawing = experiment.status === 'running' || experiment.status === 'paused';
    if (drawing && coversExperiment(now, experiment))
      issues.push({
        path: `${PATH}.startedAt`,
        message: `must not come before the start of "${id}", which already runs and may have exposed its visitors: start the holdout now`,
      });
  }
  return issues;
}

/** A covered experiment made its routes' default would change them for the held out too. */
function routeDefaultIssues(doc: ExperimentsDocument, holdout: HoldoutDocument): DocumentIssue[] {
  if (holdout.status === 'ended') return [];
  return Object.entries(doc.experiments)
    .filter(
      ([, experiment]) =>
        experiment.decision?.action === 'route_default' && coversExperiment(holdout, experiment),
    )
    .map(([id]) => ({
      path: `experiments.experiments.${id}.decision.action`,
      message:
        'cannot make a route default while the holdout covers this experiment (its visitors would get it too): roll it out instead',
    }));
}

/**
 * When each route and the split's current setup came into effect, stamped by every publish
 * (worker/config/publish.ts) like an experiment's start (worker/experiments/config/phases.ts) and
 * never typed: what the console or a file sends for them is replaced by what follows from the
 * live document and this publish, so no one can date a new route back to hide it from the
 * holdout. The holdout covers what came into effect while it ran (./holdout.ts coversSince);
 * what has no stamp was there before the stamps, so before any holdout.
 */

/**
 * The routes as stored: each keeps the `since` of the live route of its id (none if it had
 * none); a route the live document lacks is new, `at`. With nothing live yet there is nothing to
 * be new against: no route is stamped.
 */
export function stampRoutes(
  next: RoutingDocument,
  live: RoutingDocument | null | undefined,
  at: string,
): RoutingDocument {
  const before = new Map(live?.routes.map((route) => [route.id, route]));
  const routes = next.routes.map((route): RouteDocument => {
    const { since: _sent, ...rest } = route;
    const since = live ? (before.has(route.id) ? before.get(route.id)?.since : at) : undefined;
    return since === undefined ? rest : { ...rest, since };
  });
  return { ...next, routes };
}

/**
 * The split's `since`: `at` when this publish starts a new phase (new shares, a variant drawn or
 * no longer drawn: worker/experiments/config/phases.ts), else the live split's (none if it had
 * none, or nothing was live).
 */
export function splitSince(
  live: SplitDocument | null | undefined,
  newPhase: boolean,
  at: string,
): string | undefined {
  return newPhase ? at : live?.since;
}
