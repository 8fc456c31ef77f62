import type { TFunction } from 'i18next';
import type { PayDueCopy, PayDueProps } from '../../islands/PayDue';
import type { PaymentSettings } from '../../islands/payments/providers';
import type { IslandFailureCopy, PageState } from '../../islands/protocol';
import { AMOUNT_SLOT, type UpdateCardCopy, type UpdateCardProps } from '../../islands/UpdateCard';
import { cardEntryCopy } from '../../screens/plans/card-entry-copy';
import type { SubscriptionAnswer } from '../../shared/api/subscriber-calls';

/**
 * The card provider's public settings from the product API's read (SPEC.md §7 payment
 * settings): its gateway, Stripe's publishable key, Braintree's client token. A read naming no
 * gateway means Stripe, as a checkout's unknown gateway does (islands/payments/providers).
 */
function settingsOf(subscription: SubscriptionAnswer['data']): PaymentSettings {
  const key = subscription.stripe_publishable_key;
  return {
    paymentProvider: subscription.payment_gateway ?? 'stripe',
    stripe: key ? { key, name: '' } : null,
    btToken: subscription.braintree_client_token ?? '',
    // Braintree's card always verifies here: a renewal's (or a new card's) bank may well ask.
    threeDS: 1,
  };
}

function payDueCopy(t: TFunction, amount: string): PayDueCopy {
  return {
    ...cardEntryCopy(t),
    title: t('subscriber.pay_due.title'),
    due: t('subscriber.rows.due'),
    pay: t('plans.checkout_terms.pay', { amount }),
    paidTitle: t('subscriber.pay_due.paid_title'),
    paid: t('plans.receipt.paid'),
    paidWith: t('plans.receipt.paid_with'),
    renews: t('subscriber.rows.renews'),
    nothingDue: t('subscriber.pay_due.nothing_due'),
  };
}

/**
 * The card row's words. "Pay $39.99 now" is worded with the amount the card update's answer
 * gives (the due as it is then), put in for `AMOUNT_SLOT` by the island.
 */
function updateCardCopy(t: TFunction, supportEmail: string): UpdateCardCopy {
  return {
    ...cardEntryCopy(t),
    paidWith: t('plans.receipt.paid_with'),
    open: t('subscriber.card.open'),
    title: t('subscriber.card.title'),
    save: t('subscriber.card.save'),
    updatedTitle: t('subscriber.card.updated_title'),
    notAvailable: t('subscriber.card.not_available', { email: supportEmail }),
    ended: t('subscriber.card.ended'),
    dueLead: t('subscriber.card.due_lead'),
    nothingDue: t('subscriber.pay_due.nothing_due'),
    payNow: t('subscriber.card.pay_now', { amount: AMOUNT_SLOT }),
  };
}

/**
 * A manage link's "Update card" (docs/payments.md, "Update the card"): the card row's island
 * props while the subscription renews, else null (a recovery link, or one that has ended).
 */
export function updateCardOf(
  facts: { t: TFunction; language: string },
  opened: {
    purpose: string;
    cardPath: string;
    payPath: string;
    card: string | null;
    supportEmail: string;
  },
  subscription: SubscriptionAnswer['data'],
): UpdateCardProps | null {
  if (opened.purpose !== 'manage' || subscription.status !== 'active') return null;
  return {
    cardPath: opened.cardPath,
    payPath: opened.payPath,
    card: opened.card,
    language: facts.language,
    settings: settingsOf(subscription),
    copy: updateCardCopy(facts.t, opened.supportEmail),
  };
}

/**
 * "Pay what is due" (docs/payments.md) on a recovery link's page or a manage link's: the
 * island's props when the read says something is due on a subscription that renews, else null.
 */
export function payDueOf(
  facts: { t: TFunction; language: string },
  opened: { payPath: string; amount: string | null; card: string | null },
  subscription: SubscriptionAnswer['data'],
): PayDueProps | null {
  if (opened.amount === null || subscription.status !== 'active') return null;
  return {
    payPath: opened.payPath,
    amount: opened.amount,
    card: opened.card,
    language: facts.language,
    settings: settingsOf(subscription),
    copy: payDueCopy(facts.t, opened.amount),
  };
}

/**
 * The smallest page state that lets the page's script hydrate the card form. Analytics is off
 * here (no collector, no pixels, no heatmap, no visitor): the page is a subscriber's, opened
 * from an email, not a visit to the funnel, and counts in no result.
 */
export function payDuePageState(
  facts: { t: TFunction; config: { version: string } },
  production: boolean,
): { state: PageState; islandFailure: IslandFailureCopy } {
  const state: PageState = {
    screen: 'subscription',
    next: null,
    flow: '',
    variant: '',
    configVersion: facts.config.version,
    route: '',
    source: '',
    inApp: null,
    analytics: {
      visitorId: '',
      production,
      collector: null,
      tracking: {
        appsflyer_id: null,
        google_tracking_id: null,
        google_client_id: null,
        user_data: {
          uuid: '',
          fbc: null,
          fbp: null,
          fb_click_id: null,
          ttp: null,
          tt_click_id: null,
          source_url: '',
          google_click_id: null,
        },
      },
      consent: 'denied',
      pixels: { meta: null, tiktok: null, googleAds: null, appsflyer: null, clarity: null },
    },
  };
  const islandFailure = {
    message: facts.t('kit.island_failed.message'),
    reload: facts.t('kit.island_failed.reload'),
  };
  return { state, islandFailure };
}
