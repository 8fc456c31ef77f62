import type { ExperimentAudience } from '../../../shared/experiments';
import {
  type AttributeDefinition,
  type Condition,
  ROUTE_ATTRIBUTE_NAMES,
  ROUTE_ATTRIBUTES,
  type RouteAttribute,
  type RoutingDocument,
} from '../../../shared/routing';

/**
 * Whether two experiments' audiences can never take the same visitor (validate.ts lets such
 * experiments share a layer's range, and change the same slot from different layers). The answer
 * is a proof or false: false whenever it cannot be sure.
 *
 * Two proofs are known. Routes: a visitor walks one route for the visit, so audiences naming no
 * route in common never meet (absent routes mean every route). Conditions: each audience is its
 * saved audience and its own groups, both read as "any group, each group all of its conditions";
 * multiplied out, it is a list of combinations, each a plain list of conditions. The audiences
 * never meet when every combination of one, with every combination of the other, asks one
 * attribute for values no visitor can have at once: `in` lists sharing no value, or every value
 * an `in` list allows excluded by a `not_in`. Only the attributes frozen on the visit's first
 * page (shared/routing.ts firstTouch) prove anything: the hour, the browser (a visitor leaving an
 * in-app browser for Safari) or new → returning change between two pages of one visitor, who
 * keeps a variant they were exposed to, so `hour in [9]` and `hour in [10]` can both reach them.
 * The days since the visit began grow, so they are left out too.
 */

/** Attributes a visitor keeps for the visit: read from the first touch, and not a clock. */
const STABLE_ATTRIBUTES: ReadonlySet<RouteAttribute> = new Set(
  ROUTE_ATTRIBUTE_NAMES.filter(
    (name) =>
      (ROUTE_ATTRIBUTES[name] as AttributeDefinition).firstTouch === true && name !== 'visit_days',
  ),
);

/**
 * Pairs of combinations compared at most; beyond, the audiences are called overlapping (20 groups
 * times 20 on each side would be 160 000 pairs, too many to check on every keystroke).
 */
const MAX_COMBINATION_PAIRS = 4000;

type Combination = readonly Condition[];

/** The routes of an audience; null: every route. */
const routesOf = (audience: ExperimentAudience): readonly string[] | null =>
  audience.routes ?? null;

export function routesDisjoint(a: ExperimentAudience, b: ExperimentAudience): boolean {
  const first = routesOf(a);
  const second = routesOf(b);
  if (first === null || second === null) return false;
  return !first.some((route) => second.includes(route));
}

/**
 * The audience's conditions multiplied out: any of the combinations, each all of its conditions;
 * [[]] when it sets none (everyone). Null when it names a saved audience the routing lacks.
 */
function combinationsOf(
  audience: ExperimentAudience,
  routing: Pick<RoutingDocument, 'audiences'>,
): Combination[] | null {
  let saved: readonly Combination[] = [[]];
  if (audience.audience !== undefined) {
    if (!Object.hasOwn(routing.audiences, audience.audience)) return null;
    saved = routing.audiences[audience.audience]!.groups;
  }
  const own: readonly Combination[] = audience.groups ?? [[]];
  return saved.flatMap((first) => own.map((second) => [...first, ...second]));
}

/** Router semantics (worker/routing/router.ts): texts compare ignoring case. */
const normalized = (value: string | number) =>
  typeof value === 'string' ? value.toLowerCase() : value;

/** True when no visitor can meet all the conditions at once, as far as the stable ones show. */
function impossible(conditions: Combination): boolean {
  const allowed = new Map<RouteAttribute, Set<string | number>>();
  const excluded = new Map<RouteAttribute, Set<string | number>>();
  for (const { attribute, operator, values } of conditions) {
    if (!STABLE_ATTRIBUTES.has(attribute)) continue;
    const set = new Set(values.map(normalized));
    if (operator === 'in' || operator === 'equals') {
      const before = allowed.get(attribute);
      allowed.set(attribute, before ? new Set([...before].filter((value) => set.has(value))) : set);
    } else if (operator === 'not_in') {
      excluded.set(attribute, new Set([...(excluded.get(attribute) ?? []), ...set]));
    }
    // contains and starts_with prove nothing here: two parts can be in one campaign name.
  }
  for (const [attribute, values] of allowed) {
    const out = excluded.get(attribute);
    if ([...values].every((value) => out?.has(value) === true)) return true;
  }
  return false;
}

/** True only when no visitor can ever be in both audiences (see above). */
export function audiencesDisjoint(
  a: ExperimentAudience,
  b: ExperimentAudience,
  routing: Pick<RoutingDocument, 'audiences'>,
): boolean {
  if (routesDisjoint(a, b)) return true;
  const first = combinationsOf(a, routing);
  const second = combinationsOf(b, routing);
  if (first === null || second === null) return false;
  if (first.length * second.length > MAX_COMBINATION_PAIRS) return false;
  return first.every((one) => second.every((other) => impossible([...one, ...other])));
}

/** A layer's share [from, to); absent, the whole layer. */
export type Range = readonly [number, number];

export const WHOLE_LAYER: Range = [0, 1];

export function rangesOverlap(a: Range, b: Range): boolean {
  return a[0] < b[1] && b[0] < a[1];
}
