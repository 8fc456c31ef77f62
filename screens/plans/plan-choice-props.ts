import type { PlanChoiceProps } from '../../islands/PlanChoice';
import { type PlanFamilyId, planOf } from '../../shared/plans/catalogue';
import type { Coupon } from '../../shared/plans/coupons';
import { savePercent } from '../../shared/plans/plan-figures';
import {
  type ScreenOffer,
  type SellingScreenId,
  screenOffer,
} from '../../shared/plans/screen-offers';
import type { ScreenProps } from '../types';
import { planContext, planOption, taxNoteText, visitorCurrency } from './plan-copy';

/**
 * What a selling screen offers this visitor (shared/plans/screen-offers.ts, the table the worker
 * checks every charge against): the plans of the role it sells (main, upsell, guide) that the
 * visitor's route or price test arm names, else the screen's own.
 */
export function offeredPlans(props: ScreenProps, screen: SellingScreenId): ScreenOffer {
  return screenOffer(screen, {
    plans: props.routePlans ?? null,
    upsellPlans: props.upsellPlans ?? null,
    guidePlans: props.guidePlans ?? null,
  });
}

/**
 * The PlanChoice island's props for a list of plan families, in the visitor's currency and
 * language. The default plan is labelled 'Most popular'; any other plan that saves against the
 * monthly rate is labelled with its saving.
 */
export function planChoiceProps(
  props: ScreenProps,
  options: {
    families: readonly PlanFamilyId[];
    defaultFamily: PlanFamilyId;
    slot?: PlanChoiceProps['slot'];
    coupon?: Coupon | null;
    /** A label every plan carries instead ('30% off'). */
    label?: string;
    summary?: boolean;
  },
): PlanChoiceProps {
  const { t } = props;
  const currency = visitorCurrency(props);
  const context = planContext(props);
  const plans = options.families.map((family) => planOf(family, currency));
  const defaultPlan = planOf(options.defaultFamily, currency);
  return {
    label: t('plans.picker.label'),
    slot: options.slot ?? 'plan',
    defaultId: defaultPlan.id,
    options: plans.map((plan) => {
      const saving = savePercent(plan);
      const label =
        options.label ??
        (plan.id === defaultPlan.id
          ? t('plans.picker.most_popular')
          : saving > 0
            ? t('plans.picker.save', { percent: saving })
            : undefined);
      return planOption(plan, context, { label, coupon: options.coupon ?? null });
    }),
    summaryLabels: options.summary
      ? {
          title: t('plans.summary.title'),
          discount: t('plans.summary.discount'),
          total: t('plans.summary.total'),
        }
      : undefined,
    taxNote: taxNoteText(props),
  };
}
