import type { ExperimentAudience } from './config/experiments';
import type { AudienceCondition, RoutingDocument } from './config/routing';
import {
  type AttributeDefinition,
  ROUTE_ATTRIBUTE_NAMES,
  ROUTE_ATTRIBUTES,
  type RouteAttribute,
} from './routing';

/**
 * Whether two experiments' audiences can never take the same visitor (worker/experiments/config/validate.ts lets such
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

function isStable(attribute: string): attribute is RouteAttribute {
  return (STABLE_ATTRIBUTES as ReadonlySet<string>).has(attribute);
}

/**
 * Pairs of combinations compared at most; beyond, the audiences are called overlapping. A saved
 * audience of 20 groups times 20 groups of its own, on each side, would be 160 000 pairs: too many
 * to compare for every pair of experiments on every check the console makes.
 */
const MAX_COMBINATION_PAIRS = 400;

type Combination = readonly AudienceCondition[];

/** The group of an audience that sets none: everyone. */
const NO_CONDITIONS: Combination = [];

/** What one combination asks of a stable attribute: the values it allows (null: any), and not. */
interface Constraint {
  allowed: Set<string | number> | null;
  excluded: Set<string | number>;
}

type Constraints = Map<RouteAttribute, Constraint>;

/** The routes of an audience; null: every route. */
const routesOf = (audience: ExperimentAudience): readonly string[] | null =>
  audience.routes ?? null;

function routesDisjoint(a: ExperimentAudience, b: ExperimentAudience): boolean {
  const first = routesOf(a);
  const second = routesOf(b);
  if (first === null || second === null) return false;
  return !first.some((route) => second.includes(route));
}

/**
 * The audience's conditions multiplied out: any of the combinations, each all of its conditions
 * (one asking nothing when it sets none: everyone). Null when it names a saved audience the routing lacks, or
 * has more combinations than are ever compared: either way, nothing can be proven.
 */
function combinationsOf(
  audience: ExperimentAudience,
  routing: Pick<RoutingDocument, 'audiences'>,
): Constraints[] | null {
  let saved: readonly Combination[] = [NO_CONDITIONS];
  if (audience.audience !== undefined) {
    if (!Object.hasOwn(routing.audiences, audience.audience)) return null;
    saved = routing.audiences[audience.audience]!.groups;
  }
  const own: readonly Combination[] = audience.groups ?? [NO_CONDITIONS];
  // Counted before they are built: past the limit they are never compared.
  if (saved.length * own.length > MAX_COMBINATION_PAIRS) return null;
  return saved.flatMap((first) => own.map((second) => constraintsOf(first, second)));
}

/** Router semantics (worker/routing/router.ts): texts compare ignoring case. */
const normalized = (value: string | number) =>
  typeof value === 'string' ? value.toLowerCase() : value;

/**
 * What a group asks of each stable attribute, worked out once per group: a document's groups are
 * read-only once parsed, and the same groups meet in many pairs of experiments.
 */
const groupConstraints = new WeakMap<Combination, Constraints>();

function constraintsOfGroup(group: Combination): Constraints {
  let constraints = groupConstraints.get(group);
  if (constraints === undefined) {
    constraints = new Map();
    for (const { attribute, operator, values } of group) {
      // A quiz answer is none: the visitor gives it, and may change it, as they walk the funnel.
      if (!isStable(attribute)) continue;
      const set = new Set(values.map(normalized));
      if (operator === 'in' || operator === 'equals')
        constrain(constraints, attribute, { allowed: set, excluded: new Set() });
      else if (operator === 'not_in')
        constrain(constraints, attribute, { allowed: null, excluded: set });
      // contains and starts_with prove nothing here: two parts can be in one campaign name.
    }
    groupConstraints.set(group, constraints);
  }
  return constraints;
}

/** Adds what `more` asks of an attribute to what `constraints` asks of it, in place. */
function constrain(constraints: Constraints, attribute: RouteAttribute, more: Constraint): void {
  const asked = constraints.get(attribute);
  if (asked === undefined) {
    constraints.set(attribute, more);
    return;
  }
  const allowed =
    asked.allowed === null || more.allowed === null
      ? (asked.allowed ?? more.allowed)
      : new Set([...asked.allowed].filter((value) => more.allowed!.has(value)));
  constraints.set(attribute, { allowed, excluded: new Set([...asked.excluded, ...more.excluded]) });
}

/** What a saved audience's group and one of the experiment's own ask together. */
function constraintsOf(saved: Combination, own: Combination): Constraints {
  const constraints = new Map(constraintsOfGroup(saved));
  for (const [attribute, asked] of constraintsOfGroup(own))
    constrain(constraints, attribute, asked);
  return constraints;
}

/** True when no visitor can meet both combinations at once, as far as the stable attributes show. */
function impossible(first: Constraints, second: Constraints): boolean {
  for (const [attribute, asked] of first)
    if (noValueLeft(asked, second.get(attribute))) return true;
  for (const [attribute, asked] of second)
    if (!first.has(attribute) && noValueLeft(asked, undefined)) return true;
  return false;
}

/** True when no value of one attribute meets what both combinations ask of it. */
function noValueLeft(a: Constraint, b: Constraint | undefined): boolean {
  let allowed = a.allowed ?? b?.allowed ?? null;
  let other = a.allowed === null ? null : (b?.allowed ?? null);
  if (allowed === null) return false;
  if (other !== null && other.size < allowed.size) [allowed, other] = [other, allowed];
  for (const value of allowed) {
    if (other !== null && !other.has(value)) continue;
    if (a.excluded.has(value) || b?.excluded.has(value) === true) continue;
    return false;
  }
  return true;
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
  return first.every((one) => second.every((other) => impossible(one, other)));
}

/** A layer's share [from, to); absent, the whole layer. */
export type Range = readonly [number, number];

export const WHOLE_LAYER: Range = [0, 1];

export function rangesOverlap(a: Range, b: Range): boolean {
  return a[0] < b[1] && b[0] < a[1];
}
