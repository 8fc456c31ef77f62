import type { Condition } from './config/routing';

/**
 * The countries an audience requires of every visitor (docs/routes.md, "No country but their
 * own"), which the console's "Kept to DE" notice (console/kit/link-plans.ts) and the router's
 * kept routes (worker/routing/router.ts holdsIn) both read. Apart from the routing schema, so the
 * console takes it without zod.
 */

/**
 * The countries a group of an audience requires (its `country in […]` conditions; several: only
 * the countries all of them name), upper case, or null when it requires none.
 */
export function groupCountries(group: readonly Condition[]): string[] | null {
  const required = group.filter(
    (condition) =>
      condition.attribute === 'country' &&
      (condition.operator === 'in' || condition.operator === 'equals'),
  );
  if (required.length === 0) return null;
  return required
    .map((condition) => condition.values.map((value) => String(value).toUpperCase()))
    .reduce((all, next) => all.filter((code) => next.includes(code)));
}

/**
 * The countries every group of an audience requires, or null when some group requires none: a
 * visitor from anywhere else matches none of its groups, whatever their link says.
 */
export function audienceCountries(groups: readonly (readonly Condition[])[]): string[] | null {
  const perGroup = groups.map(groupCountries);
  if (perGroup.length === 0 || perGroup.some((codes) => codes === null)) return null;
  return [...new Set(perGroup.flat() as string[])].sort();
}
