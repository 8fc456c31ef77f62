import type { TFunction } from 'i18next';
import { planContext, planCopy } from '../../screens/plans/plan-copy';
import type { SubscriberView } from '../../screens/subscriber/SubscriberPage';
import { longDay, moneyOf } from '../../screens/subscriber/subscription-rows';
import type {
  SaveOfferTakeAnswer,
  SaveOfferTakeRequest,
  SubscriptionAnswer,
} from '../../shared/api/subscriber-calls';
import type { ContentDocument, SaveOfferAction } from '../../shared/config/content';
import { type Plan, planOf } from '../../shared/plans/catalogue';
import { formatMoney } from '../../shared/plans/money';
import { cheaperPlanOf } from '../../shared/plans/save-offer-actions';
import type { SaveOfferArm } from './save-offer-arm';

/**
 * What a save offer does besides its words (docs/marketers.md, "The save offer before a
 * cancel"): one action through the product API (docs/product-api.md, "Save offer actions"), a
 * coupon on the next renewals, a pause or a switch to a cheaper plan, offered on the cancel's
 * confirm beside Keep my subscription, only where it fits the subscription.
 */

type Subscription = SubscriptionAnswer['data'];

/**
 * The action of the offer a subscription is shown: its save offer test arm's variant's where
 * that variant says one (null there: words only), else the offer's; null for none.
 */
export function offerActionOf(
  content: ContentDocument,
  offer: string | null,
): SaveOfferAction | null {
  const own = offer === null ? undefined : content.saveOffer?.variants?.[offer]?.action;
  return own === undefined ? (content.saveOffer?.action ?? null) : own;
}

/** An action that fits the subscription: the call's body and its button's words. */
export interface FittingAction {
  action: SaveOfferAction;
  request: SaveOfferTakeRequest;
  label: string;
}

/**
 * The action as the subscription can take it, or null where it does not fit: only a
 * subscription that renews (active, a renewal price known) can be discounted, paused or moved,
 * and only to a cheaper plan of its role and period (shared/plans/save-offer-actions.ts).
 */
export function fittingAction(
  action: SaveOfferAction,
  subscription: Subscription,
  page: { t: TFunction; language: string; arm: SaveOfferArm | null },
): FittingAction | null {
  if (subscription.status !== 'active' || subscription.renewal_amount === null) return null;
  const { t, language, arm } = page;
  const target = {
    source: 'subscriber_page' as const,
    ...(arm?.counted ? { experiment: arm.experiment, variant: arm.variant } : {}),
  };
  if (action.kind === 'discount') {
    const { percentOff, renewals } = action;
    return {
      action,
      request: { action: 'discount', percent_off: percentOff, renewals, ...target },
      label: actionLabel(action, { t, language }),
    };
  }
  if (action.kind === 'pause') {
    return {
      action,
      request: { action: 'pause', months: action.months, ...target },
      label: actionLabel(action, { t, language }),
    };
  }
  const plan =
    subscription.plan_id === null ? null : cheaperPlanOf(subscription.plan_id, action.family);
  if (plan === null) return null;
  return {
    action,
    request: { action: 'switch', plan_id: plan.id, ...target },
    label: actionLabel(action, { t, language }, plan),
  };
}

/**
 * The action's button in the page's language: the discount and its renewals, the pause's
 * months, or the plan switched to at its price (`plan`: the family's plan in the subscription's
 * currency; without it, in US dollars, as the console's preview shows it).
 */
export function actionLabel(
  action: SaveOfferAction,
  { t, language }: { t: TFunction; language: string },
  plan?: Plan,
): string {
  if (action.kind === 'discount') {
    const { percentOff, renewals } = action;
    return t('subscriber.save_offer.take.discount', { percent: percentOff, count: renewals });
  }
  if (action.kind === 'pause')
    return t('subscriber.save_offer.take.pause', { count: action.months });
  const to = plan ?? planOf(action.family, 'USD');
  return t('subscriber.save_offer.take.switch', {
    plan: planCopy(to, planContext({ t, language })).productLabel,
    price: formatMoney(to.price, to.currency, language),
  });
}

/**
 * What a taken offer came to, as the page says it: the subscription goes on, paused until a day,
 * or renewing on a day at a price, as far as the product API said; the way back to its page.
 */
export function takenView(
  page: { t: TFunction; language: string },
  answer: SaveOfferTakeAnswer['data'],
  back: string,
): SubscriberView {
  const { t, language } = page;
  const pausedUntil = longDay(answer.paused_until, language);
  const renews = longDay(answer.renews_at, language);
  const amount = moneyOf(answer.renewal_amount, answer.currency, language);
  let lead = t('subscriber.save_offer.done.renews_plain');
  if (pausedUntil !== null) lead = t('subscriber.save_offer.done.paused', { date: pausedUntil });
  else if (renews !== null && amount !== null) {
    lead = t('subscriber.save_offer.done.renews', { date: renews, amount });
  }
  return {
    kind: 'done',
    title: t('subscriber.save_offer.done.title'),
    lead,
    back: { href: back, text: t('subscriber.save_offer.done.back') },
  };
}

/**
 * The reasons for leaving written in the page's language, in the marketer's order; none when
 * any is not written in it (a half-translated list would ask a different question).
 */
export function reasonsIn(
  content: ContentDocument,
  language: string,
): { key: string; label: string }[] {
  const reasons = Object.entries(content.saveOffer?.reasons ?? {});
  const written = reasons.map(([key, text]) => ({ key, label: text[language] ?? '' }));
  return written.every(({ label }) => label !== '') ? written : [];
}
