import {
  PLAN_FAMILIES,
  type PlanFamilyId,
  type PlanRole,
  planOf,
} from '../../shared/plans/catalogue';
import {
  PLAN_FIELD_NAMES,
  PLAN_FIELDS,
  type PlanField,
  SCREEN_OFFERS,
} from '../../shared/plans/screen-offers';

/**
 * A catalogue plan as a price test's picker shows it, in USD: "monthly_7d_intro: $6.99 for 7 days,
 * then $39.99 a month". The page and the charge take the same catalogue figures by plan id.
 */
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export function planText(family: PlanFamilyId): string {
  const { price, billing } = planOf(family, 'USD');
  if (billing.kind === 'one_time') return `${family}: ${usd(price)} once`;
  const every = billing.months === 1 ? 'a month' : 'every 3 months';
  const intro = billing.intro
    ? `${usd(billing.intro.price)} for ${billing.intro.days} days, then `
    : '';
  return `${family}: ${intro}${usd(price)} ${every}`;
}

/** What the console calls each plan list of a route or a variant. */
const PLAN_LIST_WORDS: Record<PlanField, string> = {
  plans: 'plans',
  upsellPlans: 'upsell plans',
  guidePlans: 'guide plan',
};

/** The plan lists a route or a change sets, each as words: "upsell plans upsell_monthly_799". */
export function planListParts(
  source: Partial<Record<PlanField, readonly string[] | null | undefined>>,
): string[] {
  return PLAN_FIELD_NAMES.flatMap((field) => {
    const plans = source[field];
    return plans ? [`${PLAN_LIST_WORDS[field]} ${plans.join(', ')}`] : [];
  });
}

/** Each role's own screen, whose plans stay when a route or variant names none. */
export const OWN_PLANS: Record<PlanRole, string> = {
  main: 'each screen’s own',
  upsell: `the upsell’s own, ${SCREEN_OFFERS.upsell_an_private.families.join(', ')}`,
  guide: `the guide’s own, ${SCREEN_OFFERS.upsell_guide.defaultFamily}`,
};

/** How a route card's line names each of its plan lists. */
const ROLE_WORDS: Record<PlanRole, string> = { main: 'Plans', upsell: 'Upsell', guide: 'Guide' };

/**
 * What a route sells, in one line for its card: "Plans: each screen’s own" when it names none,
 * else each list it names with each plan as its picker words it ("Plans: quarterly: $59.99 every
 * 3 months · Upsell: upsell_monthly_799: $7.99 a month"). The upsell and the guide show only where
 * the route names them: otherwise their screens sell their own, as with the main plans.
 */
export function routePlansText(
  route: Partial<Record<PlanField, readonly string[] | undefined>>,
): string {
  const roles = Object.keys(PLAN_FIELDS) as PlanRole[];
  return roles
    .flatMap((role) => {
      const plans = route[PLAN_FIELDS[role]];
      if (plans && plans.length > 0)
        return [`${ROLE_WORDS[role]}: ${plans.map(namedPlanText).join('; ')}`];
      return role === 'main' ? [`Plans: ${OWN_PLANS.main}`] : [];
    })
    .join(' · ');
}

/** A plan as its picker words it; an id the catalogue lacks (typed into the JSON) as it is. */
export function namedPlanText(family: string): string {
  return Object.hasOwn(PLAN_FAMILIES, family) ? planText(family as PlanFamilyId) : family;
}
