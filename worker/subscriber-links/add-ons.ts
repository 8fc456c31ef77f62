import {
  type AddOnSection,
  CLAIM_CONFIRM_FIELD,
  type SubscriberView,
} from '../../screens/subscriber/SubscriberPage';
import {
  longDay,
  moneyOf,
  planNameOf,
  subscriptionRows,
} from '../../screens/subscriber/subscription-rows';
import type { SubscriptionAddOn, SubscriptionAnswer } from '../../shared/api/subscriber-calls';
import { guaranteeApplies, guaranteeEndsAt } from '../../shared/plans/guarantee';
import type { SubscriberFacts } from './page-facts';

/**
 * The renewing add-ons of the subscriber's page (docs/payments.md, "The subscriber's page"):
 * each its own subscription in the product API, listed by the read of the subscription the link
 * names, and cancelled or refunded on its own. The link names the main subscription only, so an
 * add-on is acted on only when that read lists it (./subscriber-route.tsx); none of its actions
 * spends the link, which must still manage the plan.
 */

type Subscription = SubscriptionAnswer['data'];

/** What the page says in: its copy and language. */
type Words = Pick<SubscriberFacts, 't' | 'language'>;

/**
 * The add-on `addOnId` as the read of the link's subscription lists it; null when it lists no
 * such add-on, whatever the product API would say of that id: a link acts only on its own.
 */
export function addOnIn(subscription: Subscription, addOnId: string): SubscriptionAddOn | null {
  return subscription.add_ons.find((addOn) => addOn.subscription_id === addOnId) ?? null;
}

/** An add-on's own paths under the page of the link (`base`, `/subscription/<token>`). */
function addOnPaths(base: string, addOnId: string) {
  const own = `${base}/add-ons/${encodeURIComponent(addOnId)}`;
  return { cancel: `${own}/cancel`, guarantee: `${own}/guarantee` };
}

/** Whether the money-back guarantee's terms (shared/plans/guarantee.ts) apply to it at `now`. */
export function addOnGuaranteeApplies(addOn: SubscriptionAddOn, now: number): boolean {
  const terms = {
    status: addOn.status,
    chargedAt: addOn.charged_at,
    paidAmount: addOn.paid_amount,
  };
  return guaranteeApplies(terms, now);
}

/**
 * A subscription's or an add-on's end in words, once it is refunded or canceled (with the day
 * its paid period ends, where the product API gives it); null while it renews.
 */
export function endedLine(
  { t, language }: Words,
  subscription: Pick<SubscriptionAddOn, 'status' | 'ends_at'>,
): string | null {
  if (subscription.status === 'refunded') return t('subscriber.status.refunded');
  if (subscription.status !== 'canceled') return null;
  const ends = longDay(subscription.ends_at, language);
  return ends === null
    ? t('subscriber.status.canceled')
    : t('subscriber.status.canceled_until', { date: ends });
}

/** An add-on's name: its plan's, as the page names plans; "Add-on" when the read names none. */
function nameOf(words: Words, addOn: SubscriptionAddOn): string {
  return addOn.plan_id === null
    ? words.t('subscriber.add_ons.unnamed')
    : planNameOf(addOn.plan_id, words);
}

/**
 * The add-ons' sections of the overview: each its rows (what it paid, its next renewal with its
 * price, or the day it ends) under its name, with its cancel while it renews and its claim while
 * the guarantee's terms apply, for a manage link only (a recovery link manages nothing).
 */
export function addOnSections(
  words: Words,
  page: { manage: boolean; base: string },
  subscription: Subscription,
  now: number,
): AddOnSection[] {
  return subscription.add_ons.map((addOn) => {
    const paths = addOnPaths(page.base, addOn.subscription_id);
    const until = longDay(guaranteeEndsAt(addOn.charged_at), words.language);
    // Its name heads the section: no plan row of its own.
    const rows = subscriptionRows({ ...addOn, plan_id: null }, words);
    return {
      id: addOn.subscription_id,
      name: nameOf(words, addOn),
      rows,
      status: endedLine(words, addOn),
      cancelPath: page.manage && addOn.status === 'active' ? paths.cancel : null,
      guarantee:
        page.manage && until !== null && addOnGuaranteeApplies(addOn, now)
          ? { action: paths.guarantee, until }
          : null,
    };
  });
}

/**
 * An add-on's name in the language's quotes, as a sentence names it: a plan's name has commas
 * of its own ("Privacy pack, 1 month"), which the quotes keep from the sentence's.
 */
function quotedName(words: Words, addOn: SubscriptionAddOn): string {
  return words.t('subscriber.add_ons.quoted', { name: nameOf(words, addOn) });
}

/**
 * What the plan's cancel and claim confirms say of the add-ons that still renew: that they are
 * not part of it, renew on their own, and are cancelled on the page first, as the plan's action
 * spends the link. Null when none renews. Nothing cancels an add-on but its own button.
 */
export function addOnsNote(words: Words, subscription: Subscription): string | null {
  const renewing = subscription.add_ons.filter((addOn) => addOn.status === 'active');
  if (renewing.length === 0) return null;
  const quoted = renewing.map((addOn) => quotedName(words, addOn));
  const names = new Intl.ListFormat(words.language, { type: 'conjunction' }).format(quoted);
  return words.t('subscriber.add_ons.renew_alone', { count: renewing.length, names });
}

/** The way back from an add-on's pages to the subscription, which goes on. */
function backTo(words: Words, base: string, key: 'cancel.back' | 'done.back') {
  return { href: base, text: words.t(`subscriber.add_ons.${key}`) };
}

/** An add-on's cancel confirm: what cancelling it does, and that the plan goes on. */
export function addOnCancelConfirm(
  words: Words,
  addOn: SubscriptionAddOn,
  base: string,
): SubscriberView {
  const { t } = words;
  return {
    kind: 'add_on_confirm',
    title: t('subscriber.add_ons.cancel.title'),
    lead: t('subscriber.add_ons.cancel.lead', { name: quotedName(words, addOn) }),
    action: addOnPaths(base, addOn.subscription_id).cancel,
    confirm: t('subscriber.add_ons.cancel.confirm'),
    back: backTo(words, base, 'cancel.back'),
  };
}

/**
 * An add-on's money-back claim confirm, as the plan's (CLAIM_CONFIRM_FIELD): the add-on's own
 * first payment goes back and the add-on ends; the plan does not.
 */
export function addOnClaimConfirm(
  words: Words,
  addOn: SubscriptionAddOn,
  base: string,
): SubscriberView {
  const { t, language } = words;
  const name = quotedName(words, addOn);
  const amount = moneyOf(addOn.paid_amount, addOn.currency, language);
  return {
    kind: 'add_on_confirm',
    title: t('subscriber.add_ons.claim.title'),
    lead:
      amount === null
        ? t('subscriber.add_ons.claim.lead_plain', { name })
        : t('subscriber.add_ons.claim.lead', { name, amount }),
    action: addOnPaths(base, addOn.subscription_id).guarantee,
    confirm: t('subscriber.add_ons.claim.confirm'),
    back: backTo(words, base, 'cancel.back'),
    field: CLAIM_CONFIRM_FIELD,
  };
}

/**
 * What an add-on's done action says: canceled, or its money on the way back (`refunded`, in the
 * page's language; null when the product API named no amount), and the way back to the
 * subscription, whose link stays open.
 */
export function addOnDoneView(
  words: Words,
  done: { action: 'canceled' | 'refunded'; addOn: SubscriptionAddOn; refunded: string | null },
  base: string,
): SubscriberView {
  const { t } = words;
  const name = quotedName(words, done.addOn);
  const back = backTo(words, base, 'done.back');
  if (done.action === 'canceled') {
    const title = t('subscriber.add_ons.done.canceled_title');
    return {
      kind: 'done',
      title,
      lead: t('subscriber.add_ons.done.canceled_lead', { name }),
      back,
    };
  }
  const lead =
    done.refunded === null
      ? t('subscriber.add_ons.done.refunded_lead_plain', { name })
      : t('subscriber.add_ons.done.refunded_lead', { name, amount: done.refunded });
  return { kind: 'done', title: t('subscriber.add_ons.done.refunded_title'), lead, back };
}
