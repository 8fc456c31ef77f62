import type { PaymentReceiptProps, ReceiptPlanCopy } from '../../islands/PaymentReceipt';
import { PLAN_FAMILIES, type Plan, type PlanFamilyId, planOf } from '../../shared/plans/catalogue';
import { formatMoney } from '../../shared/plans/money';
import { SUPPORT_DEFAULTS } from '../kit/SupportLinks';
import type { ScreenProps } from '../types';
import { paymentPage } from './payment-method-props';
import { planContext, planCopy, visitorCurrency } from './plan-copy';

/** The main plans: the purchases a receipt is shown for. */
const MAIN_FAMILIES = (Object.keys(PLAN_FAMILIES) as PlanFamilyId[]).filter(
  (family) => PLAN_FAMILIES[family].role === 'main',
);

/**
 * A plan as the receipt names it: its product label, what it renews at (the catalogue's recurring
 * price, as the plan's disclosure states it) and when: after an intro's days, else a period.
 */
function receiptPlanCopy(plan: Plan, props: ScreenProps): ReceiptPlanCopy {
  const { t, language } = props;
  const name = planCopy(plan, planContext(props)).productLabel;
  if (plan.billing.kind === 'one_time') return { name, renewal: null, renewsAfter: null };
  const { months, intro } = plan.billing;
  return {
    name,
    renewal: t('plans.receipt.every_months', {
      count: months,
      price: formatMoney(plan.price, plan.currency, language),
    }),
    renewsAfter: intro ? { days: intro.days } : { months },
  };
}

/**
 * The PaymentReceipt island's props: the checkout's dialog after the main charge, or success's
 * order summary, for the main plans in the visitor's currency.
 */
export function paymentReceiptProps(
  props: ScreenProps,
  mode: PaymentReceiptProps['mode'],
): PaymentReceiptProps {
  const { t, language } = props;
  const currency = visitorCurrency(props);
  const plans = MAIN_FAMILIES.map((family) => planOf(family, currency));
  return {
    mode,
    next: paymentPage(props).page.next,
    language,
    plans: Object.fromEntries(plans.map((plan) => [plan.id, receiptPlanCopy(plan, props)])),
    copy: {
      title: t(mode === 'dialog' ? 'plans.receipt.title' : 'plans.receipt.summary_title'),
      lead: t('plans.receipt.lead'),
      plan: t('plans.receipt.plan'),
      paid: t('plans.receipt.paid'),
      renews: t('plans.receipt.renews'),
      paidWith: t('plans.receipt.paid_with'),
      receiptTo: t('plans.receipt.receipt_to'),
      cancel: t('plans.receipt.cancel', { email: SUPPORT_DEFAULTS.supportEmail }),
      continue: t('continue'),
    },
  };
}
