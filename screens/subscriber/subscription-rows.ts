import type { TFunction } from 'i18next';
import { paidWithLabel } from '../../islands/payments/paid-with';
import type { SubscriptionAnswer } from '../../shared/api/subscriber-calls';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { isCurrency } from '../../shared/plans/currency';
import { formatMoney, toMinorUnits } from '../../shared/plans/money';
import { planContext, planCopy } from '../plans/plan-copy';
import type { SubscriberRow } from './SubscriberPage';

type Subscription = SubscriptionAnswer['data'];

/**
 * What the rows read of a subscription: an add-on (SubscriptionAddOn) has its terms but no card
 * and no due of its own, so those may be left out.
 */
type RowsSource = Pick<
  Subscription,
  'plan_id' | 'currency' | 'paid_amount' | 'renewal_amount' | 'renews_at' | 'ends_at'
> &
  Partial<Pick<Subscription, 'amount_due' | 'card_brand' | 'card_last4' | 'wallet'>>;

/** A day in the page's language, or null when the product API gave none we can read. */
export function longDay(iso: string | number | null, language: string): string | null {
  const at = typeof iso === 'number' ? iso : iso === null ? Number.NaN : Date.parse(iso);
  if (!Number.isFinite(at)) return null;
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date(at));
}

/** An amount the product API gave in major units, in the page's language; null without both. */
export function moneyOf(
  amount: number | null,
  currency: string | null,
  language: string,
): string | null {
  const code = currency?.toUpperCase() ?? '';
  if (amount === null || !isCurrency(code)) return null;
  return formatMoney(toMinorUnits(amount, code), code, language);
}

/**
 * A plan as the page names it, like the receipt: by its catalogue name in the page's language,
 * or as the product API's id where the catalogue does not know it.
 */
export function planNameOf(planId: string, { t, language }: { t: TFunction; language: string }) {
  return isPlanId(planId)
    ? planCopy(planById(planId), planContext({ t, language })).productLabel
    : planId;
}

/**
 * The subscription's rows as the subscriber's page lists them, like the receipt's: the plan by
 * its catalogue name (the product API's id where the catalogue does not know it), the first
 * payment, the next renewal with its price (or the day it ends; or, after a failed renewal, the
 * amount due in its place), and the card. A field the
 * product API left out leaves its row out: the page never makes one up.
 */
export function subscriptionRows(
  subscription: RowsSource,
  { t, language }: { t: TFunction; language: string },
): SubscriberRow[] {
  const rows: SubscriberRow[] = [];
  const { plan_id: planId } = subscription;
  if (planId !== null) {
    rows.push({ label: t('plans.receipt.plan'), value: planNameOf(planId, { t, language }) });
  }
  const paid = moneyOf(subscription.paid_amount, subscription.currency, language);
  if (paid !== null) rows.push({ label: t('subscriber.rows.paid'), value: paid });
  // A failed renewal's amount, which a recovery link's page asks to pay (docs/payments.md): it
  // stands where the next renewal would, as nothing renews until it is paid, whatever date the
  // product API still gives.
  const due = moneyOf(subscription.amount_due ?? null, subscription.currency, language);
  const renews = due === null ? longDay(subscription.renews_at, language) : null;
  const price = moneyOf(subscription.renewal_amount, subscription.currency, language);
  if (due !== null) rows.push({ label: t('subscriber.rows.due'), value: due });
  if (renews !== null) {
    const value = price === null ? renews : t('subscriber.rows.renews_at', { date: renews, price });
    rows.push({ label: t('subscriber.rows.renews'), value });
  }
  const ends = longDay(subscription.ends_at, language);
  if (due === null && renews === null && ends !== null)
    rows.push({ label: t('subscriber.rows.ends'), value: ends });
  const { card_brand: brand = null, card_last4: last4 = null, wallet = null } = subscription;
  const paidWith =
    wallet !== null
      ? paidWithLabel({ kind: 'wallet', wallet })
      : brand !== null && last4 !== null
        ? paidWithLabel({ kind: 'card', brand, last4 })
        : null;
  if (paidWith !== null)
    rows.push({ label: t('plans.receipt.paid_with'), value: paidWith, ltr: true });
  return rows;
}
