import type { TFunction } from 'i18next';
import type { PlanChoiceOption } from '../../islands/PlanChoice';
import { type AnchorTerms, acceptedCoupon, planFigures } from '../../shared/plans/anchors';
import type { Plan } from '../../shared/plans/catalogue';
import { applyCoupon, type Coupon } from '../../shared/plans/coupons';
import { currencyForCountry } from '../../shared/plans/currency';
import { decimalString, formatMoney, moneyParts } from '../../shared/plans/money';
import { orderSummary } from '../../shared/plans/order-summary';
import { trialDays } from '../../shared/plans/plan-figures';
import { taxNoteFor } from '../../shared/plans/tax-display';
import type { ScreenProps } from '../types';

/** What a screen needs to put a plan into words: the page's t and language. */
export interface PlanCopyContext {
  t: TFunction;
  language: string;
}

export function planContext({ t, language }: Pick<ScreenProps, 't' | 'language'>): PlanCopyContext {
  return { t, language };
}

/**
 * The currency the worker chose for the visitor (their country by the config's tables), else the
 * built-in table's for their country (SPEC.md §3: EUR in the euro area, USD by default).
 */
export function visitorCurrency({ country, currency }: Pick<ScreenProps, 'country' | 'currency'>) {
  return currency ?? currencyForCountry(country);
}

function money(cents: number, plan: Plan, { language }: PlanCopyContext): string {
  return formatMoney(cents, plan.currency, language);
}

/**
 * The note a price carries where the visitor's law wants prices shown with tax included
 * (shared/plans/tax-display.ts), in the page language; undefined where none is wanted.
 */
export function taxNoteText({ t, country }: Pick<ScreenProps, 't' | 'country'>) {
  const note = taxNoteFor(country);
  return note ? t(`plans.price_tax.includes_${note}`) : undefined;
}

/** An amount after the accepted coupon, if any. */
function afterCoupon(amount: number, coupon: Coupon | null): number {
  return coupon ? applyCoupon(amount, coupon) : amount;
}

/**
 * The interpolation values every catalogue text may use: the recurring and intro prices,
 * formatted for the page language, and the count its plural form follows (intro days, months).
 */
function copyValues(plan: Plan, context: PlanCopyContext, coupon: Coupon | null) {
  const billing = plan.billing;
  const count =
    billing.kind === 'one_time' ? 1 : billing.intro ? billing.intro.days : billing.months;
  const accepted = acceptedCoupon(plan, coupon);
  return {
    count,
    price: money(afterCoupon(plan.price, accepted), plan, context),
    introPrice: money(afterCoupon(plan.periodPrice, accepted), plan, context),
  };
}

/** The catalogue entry's visible texts, in the page language. */
export function planCopy(plan: Plan, context: PlanCopyContext, coupon: Coupon | null = null) {
  const { t } = context;
  const values = copyValues(plan, context, coupon);
  return {
    name: t(plan.name, values),
    description: t(plan.description, values),
    /** The intro-then-recurring disclosure ('$6.99 for the first 7 days, then $39.99 …'). */
    disclaimer: t(plan.disclaimer, values),
    productLabel: t(plan.product_id, values),
    duration: t(plan.duration, values),
  };
}

/**
 * A plan as the PlanChoice island shows it: the per-day price big (SPEC.md §3 plan picker
 * item), the first payment under the title, struck figures only where they are a real price
 * this visitor would otherwise pay (shared/plans/anchors.ts), and the order summary of
 * SPEC.md §2 with a discount only where one is really given.
 */
export function planOption(
  plan: Plan,
  context: PlanCopyContext,
  options: { label?: string; terms: AnchorTerms },
): PlanChoiceOption {
  const { t } = context;
  const { terms } = options;
  const coupon = acceptedCoupon(plan, terms.coupon);
  const copy = planCopy(plan, context, coupon);
  const figures = planFigures(plan, terms);
  const { charged, days, perDay, anchor, anchorPerDay } = figures;
  const summary = orderSummary(plan, terms);
  return {
    id: plan.id,
    duration: copy.duration,
    price: moneyParts(perDay ?? charged, plan.currency, context.language),
    period: days === null ? undefined : t('plans.picker.per_day'),
    priceText:
      perDay === null
        ? money(charged, plan, context)
        : t('plans.picker.per_day_text', { price: money(perDay, plan, context) }),
    oldPrice: anchorPerDay === null ? undefined : money(anchorPerDay, plan, context),
    fullPrice: money(charged, plan, context),
    oldFullPrice: anchor === null ? undefined : money(anchor, plan, context),
    label: options.label,
    disclosure: copy.disclaimer,
    summary: {
      product: copy.productLabel,
      regular: money(summary.regular, plan, context),
      discount:
        summary.discount > 0
          ? t('plans.summary.discount_value', { amount: money(summary.discount, plan, context) })
          : null,
      total: money(summary.total, plan, context),
    },
    details: {
      id: plan.id,
      currency: plan.currency,
      price: decimalString(plan.price, plan.currency),
      periodPrice: decimalString(charged, plan.currency),
      trialDays: trialDays(plan),
      coupon: coupon?.code ?? null,
    },
  };
}
