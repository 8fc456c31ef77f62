import { type PlanFamilyId, planOf } from '../../shared/plans/catalogue';
import { PLAN_FIELD_NAMES, type PlanField } from '../../shared/plans/screen-offers';

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
