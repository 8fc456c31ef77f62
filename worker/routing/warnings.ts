import type { Condition, RouteDocument, RoutingDocument } from '../../shared/config/routing';
import type { FieldError } from '../../shared/console-api/errors';
import { CLICK_ID_VALUES } from '../../shared/routing';

/**
 * Routes that publish but can never take a visitor: an earlier live route already takes every
 * visitor their audience matches (first match wins, worker/routing/router.ts). Marketers add a
 * narrow route below a broad one and wonder why it stays empty; the console and the CLI say so
 * before the publish, as a warning, never a refusal: the document is valid, and a marketer may
 * mean it (the narrow route waiting for the broad one to end).
 *
 * The test is sound but incomplete: a warning is only given when the earlier audience provably
 * holds the later one, condition by condition (a condition implies one on the same attribute,
 * and a click id one on the source, which the click id decides: worker/routing/first-touch.ts); two audiences that cover each other by other
 * means (`hour in [0..11]` or `hour in [12..23]` above `hour in [5]`) pass silently.
 */

type Value = string | number;

/** What a condition accepts: text compared ignoring case, as the router does. */
interface Normal {
  attribute: string;
  operator: Condition['operator'];
  values: readonly Value[];
}

const lower = (value: Value): Value => (typeof value === 'string' ? value.toLowerCase() : value);

function normal(condition: Condition): Normal {
  return { ...condition, values: condition.values.map(lower) };
}

const texts = (values: readonly Value[]): string[] =>
  values.filter((value): value is string => typeof value === 'string');

/**
 * A visit with a click id has its network as its source (sourceOf ranks click ids first, in the
 * order clickIdOf does), so a click id condition that admits only networks implies a source
 * condition: `click_id in [tiktok]` is held by `source in [tiktok, meta]` and by `source not_in
 * [direct]`. One that admits 'none' implies nothing about the source, which the link's
 * utm_source or the referrer then decides.
 */
function clickIdImpliesSource(later: Normal, earlier: Normal): boolean {
  if (later.operator !== 'in' && later.operator !== 'not_in') return false;
  const admitted = CLICK_ID_VALUES.filter(
    (value) => later.values.includes(value) === (later.operator === 'in'),
  );
  if (admitted.includes('none')) return false;
  if (earlier.operator === 'in') return admitted.every((value) => earlier.values.includes(value));
  if (earlier.operator === 'not_in')
    return admitted.every((value) => !earlier.values.includes(value));
  return false;
}

/**
 * Every visitor `later` accepts, `earlier` accepts too. An absent value fails in, equals,
 * contains and starts_with, and passes not_in, as in the router.
 */
function conditionImplies(later: Normal, earlier: Normal): boolean {
  if (later.attribute === 'click_id' && earlier.attribute === 'source')
    return clickIdImpliesSource(later, earlier);
  if (later.attribute !== earlier.attribute) return false;
  const exact = later.operator === 'in' || later.operator === 'equals';
  const partsOfLater = later.operator === 'contains' || later.operator === 'starts_with';
  switch (earlier.operator) {
    case 'in':
    case 'equals':
      return exact && later.values.every((value) => earlier.values.includes(value));
    case 'not_in':
      if (exact) return later.values.every((value) => !earlier.values.includes(value));
      if (later.operator === 'not_in')
        return earlier.values.every((value) => later.values.includes(value));
      // A value holding one of the later parts is none of the excluded values when no excluded
      // value holds any of those parts.
      return texts(earlier.values).every(
        (excluded) =>
          !texts(later.values).some((part) =>
            later.operator === 'contains' ? excluded.includes(part) : excluded.startsWith(part),
          ),
      );
    case 'contains':
      return (
        (exact || partsOfLater) &&
        later.values.every(
          (value) =>
            typeof value === 'string' && texts(earlier.values).some((part) => value.includes(part)),
        )
      );
    case 'starts_with':
      return (
        (exact || later.operator === 'starts_with') &&
        later.values.every(
          (value) =>
            typeof value === 'string' &&
            texts(earlier.values).some((part) => value.startsWith(part)),
        )
      );
  }
}

/** Every visitor of the later group passes each condition of the earlier group. */
function groupImplies(later: readonly Normal[], earlier: readonly Normal[]): boolean {
  return earlier.every((condition) => later.some((own) => conditionImplies(own, condition)));
}

function audienceImplies(later: readonly Normal[][], earlier: readonly Normal[][]): boolean {
  return later.every((group) => earlier.some((other) => groupImplies(group, other)));
}

const NEVER_BEFORE = Number.NEGATIVE_INFINITY;
const NEVER_AFTER = Number.POSITIVE_INFINITY;

function window(route: RouteDocument): { from: number; until: number } {
  return {
    from: route.schedule?.from ? Date.parse(route.schedule.from) : NEVER_BEFORE,
    until: route.schedule?.until ? Date.parse(route.schedule.until) : NEVER_AFTER,
  };
}

/** `earlier` takes visitors whenever `later` could: not paused, open at least as wide. */
function liveWhenever(earlier: RouteDocument, later: RouteDocument): boolean {
  if (earlier.paused === true) return false;
  const outer = window(earlier);
  const inner = window(later);
  return outer.from <= inner.from && outer.until >= inner.until;
}

/** Each route an earlier live route catches whole, at `routing.routes.<i>`. */
export function routingWarnings(routing: RoutingDocument): FieldError[] {
  const audiences = new Map(
    Object.entries(routing.audiences).map(([name, audience]) => [
      name,
      audience.groups.map((group) => group.map(normal)),
    ]),
  );
  const warnings: FieldError[] = [];
  routing.routes.forEach((later, index) => {
    // The default route takes whoever is left; it is never "caught" in a way worth saying.
    if (later.audience === undefined) return;
    const laterGroups = audiences.get(later.audience);
    if (!laterGroups) return;
    const catcher = routing.routes.slice(0, index).find((earlier) => {
      if (earlier.audience === undefined || !liveWhenever(earlier, later)) return false;
      if (earlier.audience === later.audience) return true;
      const earlierGroups = audiences.get(earlier.audience);
      return earlierGroups !== undefined && audienceImplies(laterGroups, earlierGroups);
    });
    if (catcher) {
      warnings.push({
        path: `routing.routes.${index}`,
        message: `never takes a visitor: route "${catcher.id}" before it already takes everyone its audience "${later.audience}" matches`,
      });
    }
  });
  return warnings;
}
