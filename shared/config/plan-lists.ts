import * as z from 'zod';
import { PLAN_FAMILIES, type PlanFamilyId, type PlanRole } from '../plans/catalogue';
import { MAX_PLANS, PLAN_FIELDS } from '../plans/screen-offers';

/**
 * The plan lists a route or an experiment's variant sets (shared/plans/screen-offers.ts
 * PLAN_FIELDS): `plans` for the paywall and checkout, `upsellPlans` for the upsell,
 * `guidePlans` for the guide, each from the catalogue's families of that role (SPEC.md §3), so a
 * screen never shows, and the offer gate never charges, a plan of another screen. A fault names
 * the list and the entry (`routes.2.upsellPlans.0`).
 */

/** Each role as a message names it, with its article. */
const A_ROLE: Record<PlanRole, string> = { main: 'a main', upsell: 'an upsell', guide: 'a guide' };

function familiesOfRole(role: PlanRole): PlanFamilyId[] {
  return (Object.keys(PLAN_FAMILIES) as PlanFamilyId[]).filter(
    (family) => PLAN_FAMILIES[family].role === role,
  );
}

function familyProblem(role: PlanRole, input: unknown): string {
  const choices = familiesOfRole(role).join(', ');
  const text = String(input);
  if (typeof input === 'string' && Object.hasOwn(PLAN_FAMILIES, input)) {
    const actual = PLAN_FAMILIES[input as PlanFamilyId].role;
    return `"${text}" is ${A_ROLE[actual]} plan, not ${A_ROLE[role]} plan: choose one of ${choices}`;
  }
  return `"${text}" is not ${A_ROLE[role]} plan of the catalogue (${choices})`;
}

/** One catalogue family of `role`. */
function planFamilyOf(role: PlanRole) {
  const allowed: readonly string[] = familiesOfRole(role);
  return z.string().refine((family) => allowed.includes(family), {
    error: (issue) => familyProblem(role, issue.input),
  });
}

function planList(role: PlanRole) {
  const max = MAX_PLANS[role];
  return z
    .array(planFamilyOf(role))
    .min(1, 'must list at least one plan')
    .max(
      max,
      max === 1 ? 'must list one plan: the screen offers one' : `must list at most ${max} plans`,
    )
    .refine((plans) => new Set(plans).size === plans.length, 'must not list a plan twice');
}

/** The optional plan lists of a route or a variant change, one per role. */
export const planLists = {
  [PLAN_FIELDS.main]: planList('main').optional(),
  [PLAN_FIELDS.upsell]: planList('upsell').optional(),
  [PLAN_FIELDS.guide]: planList('guide').optional(),
};
