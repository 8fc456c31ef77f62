import {
  type PaymentReceiptProps,
  PRICE_SLOT,
  type ReceiptPlanCopy,
} from '../../islands/PaymentReceipt';
import { contractPageHref } from '../../shared/contract-page';
import { PLAN_FAMILIES, type Plan, type PlanFamilyId, planOf } from '../../shared/plans/catalogue';
import type { ScreenProps } from '../types';
import { paymentPage } from './payment-method-props';
import { planContext, planCopy, visitorCurrency } from './plan-copy';

const FAMILIES = Object.keys(PLAN_FAMILIES) as PlanFamilyId[];

/** The main plans: the purchases the checkout's dialog confirms. */
const MAIN_FAMILIES = FAMILIES.filter((family) => PLAN_FAMILIES[family].role === 'main');

/**
 * A plan as the receipt names it: its product label, and how it renews (its period, as the plan's
 * disclosure states it) with the slot the browser fills with the renewal's amount from the
 * worker's receipt of the charge.
 */
function receiptPlanCopy(plan: Plan, props: ScreenProps): ReceiptPlanCopy {
  const name = planCopy(plan, planContext(props)).productLabel;
  if (plan.billing.kind === 'one_time') return { name, renewal: null };
  return {
    name,
    renewal: props.t('plans.receipt.every_months', {
      count: plan.billing.months,
      price: PRICE_SLOT,
    }),
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
  // The dialog confirms a main purchase; success's summary lists the upsells bought after it too.
  const families = mode === 'dialog' ? MAIN_FAMILIES : FAMILIES;
  const plans = families.map((family) => planOf(family, currency));
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
      renewalAgreed: t('plans.receipt_consent.agreed'),
      paidWith: t('plans.receipt.paid_with'),
      receiptTo: t('plans.receipt.receipt_to'),
      cancel: t('plans.receipt.cancel', { email: props.brand.supportEmail }),
      cancelOnline: t('plans.receipt.cancel_online', { email: props.brand.supportEmail }),
      manage: t('plans.receipt.manage'),
      reference: t('subscriber.contract.fields.reference'),
      withdraw: t('kit.support.withdraw'),
      cancelContracts: t('kit.support.cancel_contracts'),
      continue: t('continue'),
    },
    contractLinks: {
      withdraw: contractPageHref('withdraw', props.theme),
      cancel: contractPageHref('cancel', props.theme),
    },
  };
}
