import type { ExperimentDecision } from '../../shared/config/experiments';
import type { AudienceDocument, Condition, RouteDocument } from '../../shared/config/routing';
import type { Change } from '../../shared/console-api/versions';
import { PLAN_FIELD_NAMES, type PlanField } from '../../shared/plans/screen-offers';
import { audienceText } from './audience-text';
import { words } from './copy-key-text';
import { namedPlanText, routePlansText } from './plan-text';
import { rampChangeLines, rampPlanText } from './ramp-change-text';
import { liftText, METRIC_NAMES } from './result-texts';
import { valueText } from './value-text';

/**
 * The review's and History's lines for what the field-by-field words of change-text.ts cannot
 * say well: the route list (one value in the diff, worker/config/diff.ts), which routes sell which
 * plans, the saved audiences, an experiment's audience and its decision. Each as sentences a
 * marketer reads, with the plans priced as the route cards price them; null for any other change.
 */

type Route = Omit<RouteDocument, 'since'>;

const isRouteList = (value: unknown): value is Route[] =>
  Array.isArray(value) && value.every((route) => typeof route?.id === 'string');

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const isPlanField = (field: string | undefined): field is PlanField =>
  (PLAN_FIELD_NAMES as readonly (string | undefined)[]).includes(field);

/** "Route tiktok: audience tiktok_de, flow lp1; Plans: quarterly: $59.99 every 3 months". */
function routeSummary(route: Route): string {
  const who = route.audience === undefined ? 'everyone else' : `audience ${route.audience}`;
  const ramp = route.ramp ? `; on a guarded ramp: ${rampPlanText(route.ramp)}` : '';
  return `${who}, flow ${route.flow}; ${routePlansText(route)}${ramp}`;
}

/** What changed on one route both lists have: its plans priced, pausing in words, else by field. */
function routeFieldLines(before: Route, after: Route): string[] {
  const lines: string[] = [];
  const name = `Route ${after.id}`;
  if (PLAN_FIELD_NAMES.some((field) => !sameJson(before[field], after[field]))) {
    lines.push(`${name} now sells ${routePlansText(after)} (was ${routePlansText(before)})`);
  }
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof Route>;
  for (const field of fields) {
    if (field === 'id' || isPlanField(field)) continue;
    if (sameJson(before[field], after[field])) continue;
    if (field === 'ramp') {
      const kind =
        before.ramp === undefined ? 'added' : after.ramp === undefined ? 'removed' : 'changed';
      const change: Change = { path: 'ramp', kind, before: before.ramp, after: after.ramp };
      lines.push(...rampChangeLines(name, [], change));
      continue;
    }
    if (field === 'paused') {
      lines.push(after.paused ? `${name} paused: it takes no new visitor` : `${name} resumed`);
      continue;
    }
    lines.push(
      `${name}, ${words(field)}: ${valueText(before[field])} → ${valueText(after[field])}`,
    );
  }
  return lines;
}

/** The route list's change: routes added, removed, put in another order, and each one changed. */
function routeListLines(before: Route[], after: Route[]): string[] {
  const was = new Map(before.map((route) => [route.id, route]));
  const now = new Map(after.map((route) => [route.id, route]));
  const lines: string[] = [];
  for (const route of after) {
    const old = was.get(route.id);
    if (old === undefined) lines.push(`Route ${route.id} added: ${routeSummary(route)}`);
    else lines.push(...routeFieldLines(old, route));
  }
  for (const route of before) {
    if (!now.has(route.id)) lines.push(`Route ${route.id} removed (was ${routeSummary(route)})`);
  }
  const kept = (routes: Route[], other: Map<string, Route>) =>
    routes.filter((route) => other.has(route.id)).map((route) => route.id);
  const order = { before: kept(before, now), after: kept(after, was) };
  if (!sameJson(order.before, order.after)) {
    lines.push(
      `Routes in a new order (the first that matches takes the visitor): ${order.after.join(', ')} (was ${order.before.join(', ')})`,
    );
  }
  return lines;
}

const isGroups = (value: unknown): value is Condition[][] =>
  Array.isArray(value) && value.every(Array.isArray);

/** Conditions as the traffic map says them; none as "none". */
const groupsText = (groups: unknown) =>
  isGroups(groups) && groups.length > 0 ? audienceText({ groups }) : 'none';

/** A saved audience (`routing.audiences.<id>`) added, removed, or its conditions changed. */
function audienceLines(change: Change, id: string, field: string | undefined): string[] | null {
  const name = `Audience ${id}`;
  if (field === undefined) {
    if (change.kind === 'added')
      return [`${name} added: ${groupsText((change.after as AudienceDocument).groups)}`];
    if (change.kind === 'removed')
      return [`${name} removed (was ${groupsText((change.before as AudienceDocument).groups)})`];
    return null;
  }
  if (field !== 'groups') return null;
  return [`${name} now takes ${groupsText(change.after)} (was ${groupsText(change.before)})`];
}

/** "routes tiktok, default", or "every route" where it names none. */
const routesText = (routes: unknown) =>
  Array.isArray(routes) && routes.length > 0
    ? `${routes.length === 1 ? 'route' : 'routes'} ${routes.join(', ')}`
    : 'every route';

/** An experiment's audience (`...audience.routes`, `.audience`, `.groups`) as who it takes. */
function experimentAudienceLine(change: Change, name: string, field: string): string | null {
  if (field === 'routes')
    return `${name} takes visitors on ${routesText(change.after)} (was ${routesText(change.before)})`;
  if (field === 'audience') {
    const saved = (value: unknown) => (value === undefined ? 'none' : String(value));
    return `${name}, saved audience: ${saved(change.before)} → ${saved(change.after)}`;
  }
  if (field === 'groups')
    return `${name}, its own conditions: ${groupsText(change.before)} → ${groupsText(change.after)}`;
  return null;
}

/** A decision as the experiment's card says it: "won: variant b rolled out to its audience". */
function decisionText(decision: ExperimentDecision): string {
  const action =
    decision.action === 'keep_control'
      ? 'the control kept'
      : decision.action === 'roll_out'
        ? `variant ${decision.variant} rolled out to its audience`
        : `variant ${decision.variant} made its routes' default`;
  return `${decision.result}, ${action}`;
}

/** What a decision's action does, as its card says it, the variant left out. */
const ACTION_WORDS: Record<ExperimentDecision['action'], string> = {
  keep_control: 'keep the control',
  roll_out: 'roll out to its audience',
  route_default: "make it its routes' default",
};

/** One field of a decision as words, its value before and after: "action: a → b". */
function decisionFieldText(field: string, deeper: string[], change: Change): string {
  const value = (side: unknown): string => {
    if (side === undefined || side === null) return 'none';
    if (field === 'action' && typeof side === 'string' && Object.hasOwn(ACTION_WORDS, side))
      return ACTION_WORDS[side as ExperimentDecision['action']];
    if (field === 'evidence' && deeper[0] === 'metric' && typeof side === 'string')
      return METRIC_NAMES[side as keyof typeof METRIC_NAMES] ?? side;
    return typeof side === 'string' ? `“${side}”` : JSON.stringify(side);
  };
  const label = field === 'by' ? 'decided by' : words([field, ...deeper].join('_'));
  return `${label}: ${value(change.before)} → ${value(change.after)}`;
}

/** The decision with what it was made on, and by whom: the review's line. */
function decisionLine(decision: ExperimentDecision): string {
  const { evidence } = decision;
  const interval = evidence.interval && {
    lower: evidence.interval[0],
    upper: evidence.interval[1],
  };
  const lift =
    evidence.relativeLift === null ? '' : `: ${liftText(evidence.relativeLift, interval)}`;
  const reason = decision.reason ? `, “${decision.reason}”` : '';
  return `${decisionText(decision)} (on ${METRIC_NAMES[evidence.metric]}${lift}; by ${decision.by}${reason})`;
}

/** `experiments.experiments.<id>.…`: its audience, its decision, a variant's plans. */
function experimentLines(change: Change, id: string, rest: string[]): string[] | null {
  const name = `Experiment ${id}`;
  const [area, field, ...deeper] = rest;
  if (area === 'audience' && field !== undefined && deeper.length === 0) {
    const line = experimentAudienceLine(change, name, field);
    return line === null ? null : [line];
  }
  if (area === 'decision' && field === undefined) {
    if (change.kind === 'added')
      return [`${name} decided: ${decisionLine(change.after as ExperimentDecision)}`];
    if (change.kind === 'removed')
      return [
        `${name}'s decision taken back (was ${decisionText(change.before as ExperimentDecision)})`,
      ];
  }
  if (area === 'ramp') return rampChangeLines(name, rest.slice(1), change);
  if (area === 'decision' && field === 'ramp')
    return rampChangeLines(`${name}'s roll-out`, deeper, change);
  if (area === 'decision' && field !== undefined) {
    return [`${name}'s decision, ${decisionFieldText(field, deeper, change)}`];
  }
  const list = deeper[1];
  if (area === 'variants' && deeper[0] === 'change' && isPlanField(list) && deeper.length === 2) {
    const priced = (plans: unknown) =>
      Array.isArray(plans) ? plans.map(namedPlanText).join('; ') : 'the route’s own';
    return [
      `${name}, variant ${field}, ${words(list)}: ${priced(change.before)} → ${priced(change.after)}`,
    ];
  }
  return null;
}

/** The lines of a change this file words; null where change-text.ts's field-by-field words do. */
export function routingChangeLines(change: Change): string[] | null {
  const [section, group, id, ...rest] = change.path.split('.');
  if (change.path === 'routing.routes') {
    const before = isRouteList(change.before) ? change.before : [];
    const after = isRouteList(change.after) ? change.after : [];
    return routeListLines(before, after);
  }
  if (section === 'routing' && group === 'audiences' && id !== undefined && rest.length <= 1)
    return audienceLines(change, id, rest[0]);
  if (section === 'experiments' && group === 'experiments' && id !== undefined)
    return experimentLines(change, id, rest);
  return null;
}
