import type {
  AudienceDocument,
  Condition,
  RouteDocument,
  RoutingDocument,
} from '../../shared/config/routing';
import type { ConfigDocument } from '../../shared/console-api/config';
import { DEFAULT_ROUTE_ID, type RouteAttribute } from '../../shared/routing';

/**
 * The edits a marketer makes to the routing section (shared/config/routing.ts), as pure functions
 * like document-edits.ts: each returns a new document. The order rule the worker's validator holds
 * (shared/config/routing.ts: `default` last, taking everyone else) is kept by construction, so an
 * edit here can never move a route below it.
 */

function withRouting(document: ConfigDocument, routing: Partial<RoutingDocument>): ConfigDocument {
  return { ...document, routing: { ...document.routing, ...routing } };
}

/** A new route, just above `default`: the last place a route with an audience may take. */
export function withRouteAdded(document: ConfigDocument, route: RouteDocument): ConfigDocument {
  const routes = [...document.routing.routes];
  const last = routes.at(-1)?.id === DEFAULT_ROUTE_ID ? routes.length - 1 : routes.length;
  routes.splice(last, 0, route);
  return withRouting(document, { routes });
}

/** Moves route `id` one place up (-1) or down (1); never past `default`, which stays last. */
export function withRouteMoved(document: ConfigDocument, id: string, by: -1 | 1): ConfigDocument {
  const routes = [...document.routing.routes];
  const from = routes.findIndex((route) => route.id === id);
  const to = from + by;
  const movable = (index: number) =>
    index >= 0 && index < routes.length && routes[index]?.id !== DEFAULT_ROUTE_ID;
  if (from < 0 || !movable(from) || !movable(to)) return document;
  [routes[from], routes[to]] = [routes[to] as RouteDocument, routes[from] as RouteDocument];
  return withRouting(document, { routes });
}

/** The document's country→currency table (undefined: the built-in one alone). */
export function withCurrencies(
  document: ConfigDocument,
  currencies: RoutingDocument['currencies'],
): ConfigDocument {
  const { currencies: _old, ...routing } = document.routing;
  return { ...document, routing: currencies ? { ...routing, currencies } : routing };
}

/** Sets some fields of route `id`; a field set to undefined is taken out (its default). */
export function withRouteFields(
  document: ConfigDocument,
  id: string,
  fields: Partial<Omit<RouteDocument, 'id'>>,
): ConfigDocument {
  const routes = document.routing.routes.map((route) => {
    if (route.id !== id) return route;
    const next: Record<string, unknown> = { ...route, ...fields };
    for (const [field, value] of Object.entries(next)) {
      if (value === undefined) delete next[field];
    }
    return next as unknown as RouteDocument;
  });
  return withRouting(document, { routes });
}

export function withRouteRemoved(document: ConfigDocument, id: string): ConfigDocument {
  if (id === DEFAULT_ROUTE_ID) return document;
  const removed = withRouting(document, {
    routes: document.routing.routes.filter((route) => route.id !== id),
  });
  // The split cannot draw a route that is gone (worker/config/document.ts refuses the name).
  const drawn = splitRoutesOf(document);
  return drawn.includes(id)
    ? withSplitRoutes(
        removed,
        drawn.filter((route) => route !== id),
      )
    : removed;
}

/** The routes the split test draws (shared/config/split.ts `routes`): absent, only `default`. */
export function splitRoutesOf(document: Pick<ConfigDocument, 'split'>): readonly string[] {
  return document.split.routes ?? [DEFAULT_ROUTE_ID];
}

/**
 * The split drawing `routes`, in the routing's order; only `default`, the field's default, is
 * written as no field, so choosing it back leaves the draft as the live config was.
 */
export function withSplitRoutes(
  document: ConfigDocument,
  routes: readonly string[],
): ConfigDocument {
  const order = document.routing.routes.map((route) => route.id);
  const chosen = order.filter((id) => routes.includes(id));
  const { routes: _was, ...split } = document.split;
  const onlyDefault = chosen.length === 1 && chosen[0] === DEFAULT_ROUTE_ID;
  return { ...document, split: onlyDefault ? split : { ...split, routes: chosen } };
}

/** Saves audience `name` (new, or replacing the one of that name). */
export function withAudience(
  document: ConfigDocument,
  name: string,
  audience: AudienceDocument,
): ConfigDocument {
  return withRouting(document, { audiences: { ...document.routing.audiences, [name]: audience } });
}

/** The routes that take audience `name`, in order. */
export function routesUsing(routing: RoutingDocument, name: string): string[] {
  return routing.routes.filter((route) => route.audience === name).map((route) => route.id);
}

/** What a visitor carries in the link they open: its click ids and UTM tags, and `?r=`. */
const LINK_ATTRIBUTES: ReadonlySet<RouteAttribute> = new Set([
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'entry',
]);

/**
 * Whether the condition asks the link for a value: a source, UTM tag or entry alias it names,
 * or a click id (one that admits 'none' is met by a link without any, so it asks nothing).
 */
export function takesLinkValue(condition: Condition): boolean {
  if (condition.attribute === 'click_id') {
    return condition.operator === 'in'
      ? !condition.values.includes('none')
      : condition.values.includes('none');
  }
  return LINK_ATTRIBUTES.has(condition.attribute) && condition.operator !== 'not_in';
}

/**
 * Whether opening a link can put a visitor in the audience: one of its groups asks for a value
 * the link itself carries (a source, a UTM tag, an entry alias, a click id). Such a link can be
 * shared beyond the ad it was made for, and its click id typed by hand, so a route giving its
 * audience other plans gives them to whoever has the link.
 */
export function metByLink(audience: AudienceDocument): boolean {
  return audience.groups.some((group) => group.some(takesLinkValue));
}

/** A route id or audience name, as shared/config/fields.ts allows it. */
const SLUG = /^[a-z0-9][a-z0-9_-]{0,47}$/;

function slugProblem(name: string, what: string): string | null {
  if (name === '') return `Enter a name for the ${what}.`;
  return SLUG.test(name)
    ? null
    : 'Use lower-case letters, digits, "-" and "_", at most 48 (for example tiktok_de).';
}

/** Why an id typed for a new route cannot be used, or null when it can. */
export function routeIdProblem(id: string, routing: RoutingDocument): string | null {
  const problem = slugProblem(id, 'route');
  if (problem) return problem;
  return routing.routes.some((route) => route.id === id) ? `${id} is a route already.` : null;
}

/** Why a name typed for a new audience cannot be used, or null when it can. */
export function audienceNameProblem(name: string): string | null {
  return slugProblem(name, 'audience');
}

/**
 * A datetime-local input's value (the marketer types UTC, as the label says) as the instant the
 * routing section holds, or undefined for an empty input.
 */
export function utcInstantOf(local: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local) ? `${local}Z` : undefined;
}

/** The routing section's instant as a datetime-local input's value (UTC), or ''. */
export function localValueOf(instant: string | undefined): string {
  return instant?.slice(0, 16) ?? '';
}
