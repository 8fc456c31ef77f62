import type { TFunction } from 'i18next';
import type { Plan } from '../../shared/plans/catalogue';
import { formatMoney } from '../../shared/plans/money';
import { trialDays } from '../../shared/plans/plan-figures';
import type { CheckoutVariant } from './checkout-variants';

/**
 * The headline a checkout variant leads with: its trial, or paying with PayPal. A one-click
 * variant leads with its trial too: the server cannot know whether this browser has Apple Pay or
 * Google Pay, and a headline promising them where they are absent would be refused a moment later
 * (the wallet's own button shows once the browser says it can pay).
 */
export function CheckoutCallout({
  t,
  language,
  emphasis,
  plan,
}: {
  t: TFunction;
  language: string;
  emphasis: CheckoutVariant['emphasis'];
  /** The plan selected when the page opens, whose trial the trial emphasis names. */
  plan: Plan;
}) {
  const trial = emphasis === 'trial' || emphasis === 'one_click';
  // Once the visitor's offer ended the plan is the regular one: there is no trial to headline.
  if (trial && trialDays(plan) === 0) return null;
  const [title, text] = trial
    ? [
        // SPEC.md §9: the copy uses a trial of {count} days.
        t('i18n.trial_days', { count: trialDays(plan) }),
        t('plans.checkout.trial_text', {
          price: formatMoney(plan.periodPrice, plan.currency, language),
        }),
      ]
    : [t(`plans.checkout.${emphasis}_title`), t(`plans.checkout.${emphasis}_text`)];
  return (
    <div className={`checkout-callout checkout-callout--${emphasis}`}>
      <p className="checkout-callout__title">{title}</p>
      <p className="checkout-callout__text">{text}</p>
    </div>
  );
}
