import type { ContentChoices } from '../../shared/config/content';
import type { OfferTerms } from '../../shared/config/offer-terms';
import type { Condition, RoutingDocument } from '../../shared/config/routing';
import { NO_PLAN_CHOICES, type PlanChoices, planChoicesOf } from '../../shared/plans/screen-offers';
import { DEFAULT_ROUTE_ID, type RouteAttribute } from '../../shared/routing';

/**
 * Which route a visitor gets (docs/routes.md): the first route, in order, that is live (not
 * paused, its schedule open at `now`) and whose audience matches the visitor; else `default`,
 * always last. A routing document is compiled once per version into plain closures (sets for
 * lists, lower-cased texts), so choosing costs a few comparisons per route and no allocation
 * beyond the answer; `npm run bench -- routing` holds it to 0.05 ms for 50 routes and 30
 * audiences.
 */

/** What a rule can read of one visitor; `get` may work a value out on first use (the hour). */
export interface VisitorFacts {
  get(attribute: RouteAttribute): string | number | null;
}

/** The route a visitor is on, with the plan families it names per role; null: each screen's own. */
export interface ChosenRoute extends PlanChoices, OfferTerms {
  id: string;
  flow: string;
  /** The content variant its screens show (a content test shipped to it), by screen. */
  content?: ContentChoices;
}

type Test = (facts: VisitorFacts) => boolean;

interface CompiledRoute {
  route: ChosenRoute;
  audience: string | null;
  /** The audience's groups, read only to explain a miss (explainRoute); null when undefined. */
  groups: readonly (readonly Condition[])[] | null;
  paused: boolean;
  from: number;
  until: number;
  matches: Test;
}

export interface CompiledRouting {
  version: string;
  routes: readonly CompiledRoute[];
  byId: ReadonlyMap<string, ChosenRoute>;
}

function compileCondition(condition: Condition): Test {
  const { attribute, operator } = condition;
  const lowered = condition.values.map((value) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const set = new Set<string | number>(lowered);
  const read = (facts: VisitorFacts) => {
    const value = facts.get(attribute);
    return typeof value === 'string' ? value.toLowerCase() : value;
  };
  switch (operator) {
    case 'in':
    case 'equals':
      return (facts) => {
        const value = read(facts);
        return value !== null && set.has(value);
      };
    case 'not_in':
      return (facts) => {
        const value = read(facts);
        return value === null || !set.has(value);
      };
    case 'contains':
      return (facts) => {
        const value = read(facts);
        return typeof value === 'string' && lowered.some((part) => value.includes(String(part)));
      };
    case 'starts_with':
      return (facts) => {
        const value = read(facts);
        return typeof value === 'string' && lowered.some((part) => value.startsWith(String(part)));
      };
  }
}

/** Any group matches, each group all of its conditions (experiments' audiences too). */
export function compileAudience(groups: readonly (readonly Condition[])[]): Test {
  const compiled = groups.map((group) => group.map(compileCondition));
  return (facts) => compiled.some((group) => group.every((test) => test(facts)));
}

const always: Test = () => true;

/**
 * A route as a visitor on it is served: its id, flow, plans, content variants and offer terms
 * (from the routing section, or a marketer's preview of one, worker/funnel/preview.ts).
 */
export function chosenRouteOf(
  route: Pick<ChosenRoute, 'id' | 'flow' | 'content' | 'anchors' | 'countdown'> &
    Parameters<typeof planChoicesOf>[0],
): ChosenRoute {
  return {
    id: route.id,
    flow: route.flow,
    ...planChoicesOf(route),
    ...(route.content ? { content: route.content } : {}),
    ...(route.anchors === false ? { anchors: false } : {}),
    ...(route.countdown === false ? { countdown: false } : {}),
  };
}

export function compileRouting(document: RoutingDocument): CompiledRouting {
  const audiences = new Map(
    Object.entries(document.audiences).map(([name, audience]) => [
      name,
      compileAudience(audience.groups),
    ]),
  );
  const routes = document.routes.map((route): CompiledRoute => {
    return {
      route: chosenRouteOf(route),
      audience: route.audience ?? null,
      groups: route.audience ? (document.audiences[route.audience]?.groups ?? null) : null,
      paused: route.paused === true,
      from: route.schedule?.from ? Date.parse(route.schedule.from) : Number.NEGATIVE_INFINITY,
      until: route.schedule?.until ? Date.parse(route.schedule.until) : Number.POSITIVE_INFINITY,
      matches: route.audience ? (audiences.get(route.audience) ?? (() => false)) : always,
    };
  });
  return {
    version: document.version,
    routes,
    byId: new Map(routes.map((compiled) => [compiled.route.id, compiled.route])),
  };
}

/** Why a route did not take the visitor, or null when it did. */
function refusal(compiled: CompiledRoute, facts: VisitorFacts, now: number): string | null {
  if (compiled.paused) return 'paused';
  if (now < compiled.from) return 'not started yet';
  if (now >= compiled.until) return 'ended';
  return compiled.matches(facts) ? null : `audience "${compiled.audience}" does not match`;
}

/**
 * The route of a visitor arriving now; `passedOver`: ids it may not take (a held-out visitor's
 * routes new since the holdout, worker/experiments/holdout/held-routes.ts).
 */
export function chooseRoute(
  routing: CompiledRouting,
  facts: VisitorFacts,
  now: number,
  passedOver?: ReadonlySet<string>,
): ChosenRoute {
  for (const compiled of routing.routes) {
    if (passedOver?.has(compiled.route.id)) continue;
    if (refusal(compiled, facts, now) === null) return compiled.route;
  }
  // Unreachable with a valid document, whose last route takes everyone.
  return (
    routing.byId.get(DEFAULT_ROUTE_ID) ?? {
      id: DEFAULT_ROUTE_ID,
      flow: 'default',
      ...NO_PLAN_CHOICES,
    }
  );
}

export interface RouteExplanation {
  route: ChosenRoute;
  /** Each route before the one chosen, with why it did not take the visitor. */
  passed: { id: string; why: string }[];
}

/** The console's "test a visitor": the route, and why each earlier one did not match. */
export function explainRoute(
  routing: CompiledRouting,
  facts: VisitorFacts,
  now: number,
): RouteExplanation {
  const passed: RouteExplanation['passed'] = [];
  for (const compiled of routing.routes) {
    const why = refusal(compiled, facts, now);
    if (why === null) return { route: compiled.route, passed };
    passed.push({ id: compiled.route.id, why: withMiss(why, compiled, facts) });
  }
  return { route: chooseRoute(routing, facts, now), passed };
}

/** "bf", "tiktok or meta", "DE, AT or CH". */
function either(values: readonly (string | number)[]): string {
  const quoted = values.map(String);
  return quoted.length <= 1
    ? quoted.join('')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** Why one condition does not take the visitor: "country is FR (it must be DE, AT or CH)". */
function conditionMiss(condition: Condition, facts: VisitorFacts): string {
  const value = facts.get(condition.attribute);
  const is = `${condition.attribute} is ${value === null ? 'not known' : String(value)}`;
  const values = either(condition.values);
  switch (condition.operator) {
    case 'in':
    case 'equals':
      return `${is} (it must be ${values})`;
    case 'not_in':
      return `${is} (it must not be ${values})`;
    case 'contains':
      return `${is} (it must contain ${values})`;
    case 'starts_with':
      return `${is} (it must start with ${values})`;
  }
}

/**
 * The refusal of an audience that did not match, with the condition that failed in each group
 * (docs/routes.md, "Test a visitor before you publish"): `audience "tiktok_dach" does not match: country is FR
 * (it must be DE, AT or CH)`. Only the console's test asks; routing a visitor never does.
 */
function withMiss(why: string, compiled: CompiledRoute, facts: VisitorFacts): string {
  if (compiled.audience === null || !why.startsWith('audience ')) return why;
  if (compiled.groups === null) return `${why}: it is not defined`;
  const misses = compiled.groups.map((group) => {
    const failed = group.find((condition) => !compileCondition(condition)(facts));
    return failed === undefined ? 'matches' : conditionMiss(failed, facts);
  });
  if (misses.length === 1) return `${why}: ${misses[0]}`;
  return `${why}: none of its groups matches (${misses.map((miss, index) => `${index + 1}: ${miss}`).join('; ')})`;
}

/**
 * Compiled routing by document, kept while the document is the one in use: the config source
 * hands the same object to every request of an isolate until it reloads (worker/config/load.ts).
 */
const compiledByDocument = new WeakMap<RoutingDocument, CompiledRouting>();

export function compiledRouting(document: RoutingDocument): CompiledRouting {
  let compiled = compiledByDocument.get(document);
  if (!compiled) {
    compiled = compileRouting(document);
    compiledByDocument.set(document, compiled);
  }
  return compiled;
}
