import { planOf } from '../../shared/plans/catalogue';
import { decimalString, formatMoney } from '../../shared/plans/money';
import { orderSummary } from '../../shared/plans/order-summary';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { BenefitList } from './BenefitList';
import { gatewayCopy, paymentPage } from './payment-method-props';
import { offeredPlans } from './plan-choice-props';
import { planContext, planCopy, visitorCurrency } from './plan-copy';
import { ScreenHeading } from './ScreenHeading';
import { SkipForm } from './SkipForm';
import { upsellChargeCopy } from './upsell-charge';

const CONTENTS = ['talk', 'places', 'emergency', 'online'] as const;

/**
 * The one-time safety-toolkit guide (SPEC.md §2), at its one-time discount (SPEC.md §3: 20 off
 * in either currency). One click buys it with the payment method on file; a clear Skip moves on
 * without it.
 */
export function UpsellGuideScreen(props: ScreenProps) {
  const { screen, t, continueAction, next, language } = props;
  // The guide the visitor's route or price test names (SPEC.md §3: 8.99 or 17.99), else its own.
  const plan = planOf(offeredPlans(props, 'upsell_guide').defaultFamily, visitorCurrency(props));
  const copy = planCopy(plan, planContext(props));
  const { regular, discount, total } = orderSummary(plan);
  const money = (cents: number) => formatMoney(cents, plan.currency, language);
  return (
    <section className="screen upsell upsell--guide" aria-labelledby="screen-title">
      <ScreenHeading screen={screen} t={t} />
      <article className="guide-offer" aria-labelledby="guide-offer-name">
        <h2 id="guide-offer-name" className="guide-offer__name">
          {copy.name}
        </h2>
        <p className="guide-offer__description">{copy.description}</p>
        <BenefitList
          label={t('plans.upsell_guide.contents_label')}
          items={CONTENTS.map((item) => t(`plans.upsell_guide.contents.${item}`))}
        />
        <p className="guide-offer__price">
          <s className="guide-offer__regular">
            <span className="visually-hidden">
              {t('plans.upsell_guide.regular_price', { price: money(regular) })}
            </span>
            <span aria-hidden="true">{money(regular)}</span>
          </s>{' '}
          <strong className="guide-offer__total">{money(total)}</strong>{' '}
          <span className="guide-offer__save">
            {t('plans.upsell_guide.save', { amount: money(discount) })}
          </span>
        </p>
        <p className="guide-offer__disclaimer">{copy.disclaimer}</p>
      </article>
      <Island
        name="UpsellPurchase"
        props={{
          offers: {
            [plan.id]: {
              id: plan.id,
              currency: plan.currency,
              price: decimalString(total),
              periodPrice: decimalString(total),
              trialDays: 0,
              coupon: null,
            },
          },
          defaultPlanId: plan.id,
          action: continueAction,
          copy: {
            buy: t('plans.upsell_guide.cta'),
            paying: t('plans.pay.paying'),
            noAccount: t('plans.card.no_account'),
            gateway: gatewayCopy(t),
            ...upsellChargeCopy(t, { [plan.id]: { amount: money(total), renewal: null } }),
          },
          ...paymentPage(props),
        }}
      />
      <SkipForm action={continueAction} next={next} label={t('plans.upsell_guide.skip')} />
    </section>
  );
}
