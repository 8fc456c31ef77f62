import { audienceCountries } from '../../shared/audience-countries';
import type { ContentChoices } from '../../shared/config/content';
import type { OfferTerms } from '../../shared/config/offer-terms';
import type { RampDocument } from '../../shared/config/ramp';
import type { AudienceCondition, Condition, RoutingDocument } from '../../shared/config/routing';
import { NO_PLAN_CHOICES, type PlanChoices, planChoicesOf } from '../../shared/plans/screen-offers';
import { type AudienceAttribute, DEFAULT_ROUTE_ID } from '../../shared/routing';

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
  get(attribute: AudienceAttribute): string | number | null;
}

/** The route a visitor is on, with the plan families it names per role; null: each screen's own. */
export interface ChosenRoute extends PlanChoices, OfferTerms {
  id: string;
  flow: string;
  /** The content variant its screens show (a content test shipped to it), by screen. */
  content?: ContentChoices;
}

type Test = (facts: VisitorFacts) => boolean;

/**
 * A route's guarded ramp as the router reads it (docs/routes.md, "A new route on a ramp"): its
 * step's share and where it stands; the visitor's band is drawn by the caller (chooseRouteDrawn).
 */
interface RouteRamp {
  coverage: number;
  status: RampDocument['state']['status'];
}

/** A ramped route's two arms: drawn onto it, or kept on the route the router picks next. */
export type RouteRampBand = 'route' | 'fallback';

/** The band a visitor is in for a ramped route at `coverage`; null in neither. */
export type RouteRampDraw = (routeId: string, coverage: number) => RouteRampBand | null;

/** A visitor's arm of a ramped route, counted as its exposure (worker/middleware/exposure.ts). */
export interface RouteRampArm {
  route: string;
  arm: RouteRampBand;
}

interface CompiledRoute {
  route: ChosenRoute;
  ramp: RouteRamp | null;
  audience: string | null;
  /** The audience's groups, read only to explain a miss (explainRoute); null when undefined. */
  groups: readonly (readonly Condition[])[] | null;
  paused: boolean;
  from: number;
  until: number;
  matches: Test;
  /** The countries its audience requires of every visitor, or null when it requires none. */
  countries: ReadonlySet<string> | null;
}

export interface CompiledRouting {
  version: string;
  routes: readonly CompiledRoute[];
  byId: ReadonlyMap<string, ChosenRoute>;
  /** Routes whose ramp was rolled back: they take no one, those who had them included. */
  rolledBack: ReadonlySet<string>;
  /**
   * Whether a visitor now in `country` may keep route `id`: yes unless its audience requires
   * countries and `country` is none of them (docs/routes.md, "A kept route holds in its
   * country"). The country comes from the visitor's address, not from anything they send.
   */
  holdsIn(id: string, country: string | null): boolean;
}

function compileCondition(condition: AudienceCondition): Test {
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
export function compileAudience(groups: readonly (readonly AudienceCondition[])[]): Test {
  const compiled = groups.map((group) => group.map(compileCondition));
  return (facts) => compiled.some((group) => group.every((test) => test(facts)));
}

const always: Test = () => true;

/**
 * A route as a visitor on it is served: its id, flow, plans, content variants and offer terms
 * (from the routing section, or a marketer's preview of one, worker/preview/preview.ts).
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
    const step = route.ramp?.steps[route.ramp.state.step];
    return {
      route: chosenRouteOf(route),
      ramp:
        route.ramp === undefined
          ? null
          : { coverage: step?.coverage ?? 0, status: route.ramp.state.status },
      audience: route.audience ?? null,
      groups: route.audience ? (document.audiences[route.audience]?.groups ?? null) : null,
      paused: route.paused === true,
      from: route.schedule?.from ? Date.parse(route.schedule.from) : Number.NEGATIVE_INFINITY,
      until: route.schedule?.until ? Date.parse(route.schedule.until) : Number.POSITIVE_INFINITY,
      matches: route.audience ? (audiences.get(route.audience) ?? (() => false)) : always,
      countries: countriesOf(route.audience, document),
    };
  });
  const countries = new Map(routes.map((compiled) => [compiled.route.id, compiled.countries]));
  return {
    version: document.version,
    routes,
    byId: new Map(routes.map((compiled) => [compiled.route.id, compiled.route])),
    rolledBack: new Set(
      routes
        .filter((compiled) => compiled.ramp?.status === 'rolled_back')
        .map((compiled) => compiled.route.id),
    ),
    holdsIn(id, country) {
      const required = countries.get(id);
      return !required || (country !== null && required.has(country.toUpperCase()));
    },
  };
}

/** The countries the audience `name` requires of every visitor, or null (none, or no audience). */
function countriesOf(
  name: string | undefined,
  document: RoutingDocument,
): ReadonlySet<string> | null {
  const groups = name === undefined ? undefined : document.audiences[name]?.groups;
  const codes = groups ? audienceCountries(groups) : null;
  return codes === null ? null : new Set(codes);
}

/** Why a route did not take the visitor, or null when it did. */
function refusal(compiled: CompiledRoute, facts: VisitorFacts, now: number): string | null {
  if (compiled.paused) return 'paused';
  if (now < compiled.from) return 'not started yet';
  if (now >= compiled.until) return 'ended';
  return compiled.matches(facts) ? null : `audience "${compiled.audience}" does not match`;
}

/**
 * Why a route on a ramp does not take a visitor whose band is not drawn (the console's test, a
 * request without a visitor id), or null when it takes them as any route: no ramp, or done.
 */
function rampRefusal(compiled: CompiledRoute): string | null {
  const { ramp } = compiled;
  if (ramp === null || ramp.status === 'done') return null;
  if (ramp.status === 'rolled_back') return 'rolled back: it takes no one';
  return `on a ramp: it takes ${Math.round(ramp.coverage * 1000) / 10}% of its visitors, drawn by their id`;
}

/**
 * The route of a visitor arriving now, drawn onto no ramped route (chooseRouteDrawn);
 * `passedOver`: ids it may not take (a held-out visitor's routes new since the holdout,
 * worker/experiments/holdout/holdout.ts).
 */
export function chooseRoute(
  routing: CompiledRouting,
  facts: VisitorFacts,
  now: number,
  passedOver?: ReadonlySet<string>,
): ChosenRoute {
  return chooseRouteDrawn(routing, facts, now, () => null, passedOver).route;
}

/**
 * The route of a visitor arriving now, and their arm of each ramped route that matched them
 * (docs/routes.md, "A new route on a ramp"): a route on a running or held ramp takes them only
 * when `draw` puts them in its band; in its fallback band, or neither, the next route that takes
 * them does, as if it were not there. A rolled-back route takes no one; a done one, everyone.
 */
export function chooseRouteDrawn(
  routing: CompiledRouting,
  facts: VisitorFacts,
  now: number,
  draw: RouteRampDraw,
  passedOver?: ReadonlySet<string>,
): { route: ChosenRoute; arms: RouteRampArm[] } {
  const arms: RouteRampArm[] = [];
  for (const compiled of routing.routes) {
    if (passedOver?.has(compiled.route.id)) continue;
    if (refusal(compiled, facts, now) !== null) continue;
    const { ramp } = compiled;
    if (ramp === null || ramp.status === 'done') return { route: compiled.route, arms };
    if (ramp.status === 'rolled_back') continue;
    const arm = draw(compiled.route.id, ramp.coverage);
    if (arm !== null) arms.push({ route: compiled.route.id, arm });
    if (arm === 'route') return { route: compiled.route, arms };
  }
  // Unreachable with a valid document, whose last route takes everyone.
  return {
    route: routing.byId.get(DEFAULT_ROUTE_ID) ?? {
      id: DEFAULT_ROUTE_ID,
      flow: 'default',
      ...NO_PLAN_CHOICES,
    },
    arms,
  };
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
    const why = refusal(compiled, facts, now) ?? rampRefusal(compiled);
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

/**
 * What the gf_route cookie keeps (signed, worker/request/cookies.ts): the route chosen
 * for the visit and when, `<route id>.<epoch seconds>`. The visit is the browser's session, and
 * at most ROUTE_VISIT_MS: a browser that is never closed (most phones') does not keep a route
 * its marketers paused or ended weeks ago, nor does a visitor who saved the cookie.
 */

const ROUTE_VISIT_MS = 24 * 60 * 60 * 1000;

const ROUTE_ID = /^[a-z0-9][a-z0-9_-]{0,47}$/;
const SECONDS = /^\d{1,12}$/;

/** The cookie's value for `routeId` chosen at `nowMs`. */
export function encodeKeptRoute(routeId: string, nowMs: number): string {
  return `${routeId}.${Math.floor(nowMs / 1000)}`;
}

/**
 * The route id a cookie's value keeps at `nowMs`, or null when it is not what encodeKeptRoute
 * wrote or the visit is over (chosen ROUTE_VISIT_MS ago or more).
 */
export function decodeKeptRoute(value: string, nowMs: number): string | null {
  const dot = value.indexOf('.');
  const id = value.slice(0, dot);
  const seconds = value.slice(dot + 1);
  if (dot === -1 || !ROUTE_ID.test(id) || !SECONDS.test(seconds)) return null;
  const chosenAt = Number(seconds) * 1000;
  return nowMs - chosenAt < ROUTE_VISIT_MS ? id : null;
}
