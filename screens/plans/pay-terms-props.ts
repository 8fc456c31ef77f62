import { AMOUNT_SLOT, type PayTermsCopy, type PlanPayWords } from '../../islands/kit/PayTerms';
import { type Plan, planOf } from '../../shared/plans/catalogue';
import { consentTermsOf } from '../../shared/plans/consent-terms';
import type { Coupon } from '../../shared/plans/coupons';
import { formatMoney } from '../../shared/plans/money';
import { type PayTerms, payTermsOf } from '../../shared/plans/pay-terms';
import {
  RENEWAL_CONSENT_VERSION,
  type RenewalConsentRule,
  renewalConsentRule,
} from '../../shared/plans/renewal-consent';
import { endedOffer, type ScreenOffer } from '../../shared/plans/screen-offers';
import type { ScreenProps } from '../types';
import { type PlanCopyContext, planContext, visitorCurrency } from './plan-copy';

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A renewal day as the page language writes it ('26 December 2026'), in UTC as it is charged. */
function renewalDate(at: number, language: string): string {
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' });
    dateFormats.set(language, format);
  }
  return format.format(at);
}

/** The sentence of what is taken today and what renews when (SPEC.md §4: the pay step's terms). */
function chargeSentence(terms: PayTerms, plan: Plan, { t, language }: PlanCopyContext): string {
  const money = (cents: number) => formatMoney(cents, plan.currency, language);
  const amount = money(terms.chargedNow);
  const { renewal } = terms;
  if (!renewal) return t('plans.checkout_terms.one_time', { amount });
  const values = {
    amount,
    price: money(renewal.amount),
    every: t('plans.checkout_terms.every', { count: renewal.months }),
    date: renewalDate(renewal.firstAt, language),
  };
  return renewal.introDays === null
    ? t('plans.checkout_terms.recurring', values)
    : t('plans.checkout_terms.intro', { ...values, count: renewal.introDays });
}

/**
 * One plan's pay button and the terms beside it, in the page's language and the plan's currency:
 * "Pay $39.99" or "Start trial for $6.99" ("Pay €6.99 now" where the button must say it commits
 * to pay), the renewal in words with its first date and how to cancel, and the consent box's
 * text where the visitor's country asks for one (shared/plans/renewal-consent.ts).
 */
export function planPayWords(
  plan: Plan,
  context: PlanCopyContext,
  options: {
    coupon: Coupon | null;
    rule: RenewalConsentRule;
    now: number;
    /** Where the brand's subscribers write to cancel. */
    supportEmail: string;
    /** The receipt carries a link to cancel online (ScreenProps.cancelOnline). */
    cancelOnline?: boolean;
  },
): PlanPayWords {
  const { t, language } = context;
  const terms = payTermsOf(plan, options.coupon, options.rule, options.now);
  const amount = formatMoney(terms.chargedNow, plan.currency, language);
  const { renewal } = terms;
  return {
    pay: t(`plans.checkout_terms.${terms.button}`, { amount }),
    total: amount,
    terms: [
      chargeSentence(terms, plan, context),
      renewal
        ? t(`plans.checkout_terms.${options.cancelOnline ? 'cancel_online' : 'cancel'}`, {
            email: options.supportEmail,
          })
        : '',
    ]
      .filter(Boolean)
      .join(' '),
    consent:
      options.rule.checkbox && renewal
        ? t('plans.checkout_terms.consent', {
            price: formatMoney(renewal.amount, plan.currency, language),
            every: t('plans.checkout_terms.every', { count: renewal.months }),
          })
        : null,
    agreement: options.rule.checkbox && renewal ? consentTermsOf(plan, options.coupon) : null,
  };
}

/**
 * The plans whose words the page carries: those offered now and, while the visitor's countdown
 * runs, those sold once it reaches zero (the monthly plan a trial renews into), which the plan
 * picker switches to on the open page; without them the button would still name the trial's
 * amount over a choice that charges the regular price.
 */
function plansWorded(
  props: ScreenProps,
  offer: Pick<ScreenOffer, 'families' | 'defaultFamily' | 'coupon'>,
) {
  const families =
    props.offerClock?.state === 'running'
      ? [...new Set([...offer.families, ...endedOffer(offer).families])]
      : offer.families;
  return families.map((family) => planOf(family, visitorCurrency(props)));
}

/**
 * The pay button's words and terms for every plan a selling screen offers this visitor, keyed by
 * plan id, so the button follows the plan picked above; and the consent the visitor's country
 * asks for. Dated from `now`, the time the page is drawn.
 */
export function payTermsCopy(
  props: ScreenProps,
  offer: Pick<ScreenOffer, 'families' | 'defaultFamily' | 'coupon'>,
  now: number = Date.now(),
): PayTermsCopy {
  const { t } = props;
  const currency = visitorCurrency(props);
  const rule = renewalConsentRule(props.country);
  const context = planContext(props);
  const plans = plansWorded(props, offer);
  return {
    defaultPlan: planOf(offer.defaultFamily, currency).id,
    plans: Object.fromEntries(
      plans.map((plan) => [
        plan.id,
        planPayWords(plan, context, {
          coupon: offer.coupon,
          rule,
          now,
          supportEmail: props.brand.supportEmail,
          cancelOnline: props.cancelOnline,
        }),
      ]),
    ),
    consent: rule.checkbox
      ? {
          version: RENEWAL_CONSENT_VERSION,
          language: props.language,
          missing: t('plans.checkout_terms.consent_missing'),
          changed: t('plans.checkout_terms.consent_changed', { amount: AMOUNT_SLOT }),
        }
      : null,
    totalLabel: t('plans.checkout_terms.total_today'),
  };
}
