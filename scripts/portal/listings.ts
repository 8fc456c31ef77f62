import type {
  DeclarationListing,
  LookupListing,
  ReminderListing,
  SaveOfferListing,
  SubscriptionListing,
  UserListing,
} from '../../portal/store/listings';
import type { PaymentListing } from '../../portal/store/subscription-payments';
import type { Currency } from '../../shared/plans/currency';
import { decimalString } from '../../shared/plans/money';
import type { Column } from './table';

/**
 * The columns `npm run portal -- users|subscriptions|lookups|reminders|declarations|save-offers`
 * prints.
 */

/** '2026-05-01T09:30:12.345Z' → '2026-05-01 09:30:12' (UTC, as stored). */
export function shortTime(iso: string | null): string | null {
  return iso?.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') ?? null;
}

export const USER_COLUMNS: readonly Column<UserListing>[] = [
  { header: 'id', cell: (user) => user.id },
  { header: 'email', cell: (user) => user.email },
  { header: 'name', cell: (user) => user.name },
  { header: 'source', cell: (user) => user.registration_source },
  { header: 'landing_type', cell: (user) => user.landing_type },
  { header: 'created (UTC)', cell: (user) => shortTime(user.created_at) },
];

export const SUBSCRIPTION_COLUMNS: readonly Column<SubscriptionListing>[] = [
  { header: 'id', cell: (subscription) => subscription.id },
  { header: 'user email', cell: (subscription) => subscription.email },
  { header: 'plan', cell: (subscription) => subscription.plan_id },
  { header: 'gateway', cell: (subscription) => subscription.gateway },
  { header: 'state', cell: (subscription) => subscription.state },
  {
    header: 'price',
    cell: (subscription) => subscription.price_with_discount?.toFixed(2) ?? null,
  },
  {
    header: 'charged',
    cell: (subscription) => money(subscription.charged_minor, subscription.currency),
  },
  {
    header: 'back',
    cell: (subscription) => money(subscription.returned_minor, subscription.currency),
  },
  { header: 'created (UTC)', cell: (subscription) => shortTime(subscription.created_at) },
];

/** '86.97 EUR'; none when nothing was charged (no currency known). */
function money(minor: number, currency: string | null): string | null {
  return currency === null ? null : `${decimalString(minor, currency as Currency)} ${currency}`;
}

export const PAYMENT_COLUMNS: readonly Column<PaymentListing>[] = [
  { header: 'subscription', cell: (payment) => payment.subscription_id },
  { header: 'kind', cell: (payment) => payment.kind },
  { header: 'amount', cell: (payment) => money(payment.amount_minor, payment.currency) },
  { header: 'attempt', cell: (payment) => payment.attempt },
  { header: 'card', cell: (payment) => payment.card_brand },
  { header: 'at (UTC)', cell: (payment) => shortTime(payment.occurred_at) },
  { header: 'event id', cell: (payment) => payment.event_id },
];

export const LOOKUP_COLUMNS: readonly Column<LookupListing>[] = [
  { header: 'phone', cell: (lookup) => lookup.phone },
  { header: 'valid', cell: (lookup) => (lookup.valid ? 'yes' : 'no') },
  { header: 'country', cell: (lookup) => lookup.country },
  { header: 'consent SMS at (UTC)', cell: (lookup) => shortTime(lookup.consent_sms_at) },
  { header: 'looked up (UTC)', cell: (lookup) => shortTime(lookup.created_at) },
];

export const DECLARATION_COLUMNS: readonly Column<DeclarationListing>[] = [
  { header: 'kind', cell: (declared) => declared.kind },
  { header: 'email', cell: (declared) => declared.email },
  { header: 'reference', cell: (declared) => declared.reference },
  { header: 'subscription', cell: (declared) => declared.subscription_id },
  { header: 'outcome', cell: (declared) => declared.outcome },
  { header: 'brand', cell: (declared) => declared.brand },
  { header: 'language', cell: (declared) => declared.language },
  { header: 'at (UTC)', cell: (declared) => shortTime(declared.at) },
];

/** What a save offer did, in a few words: '25% off 3 renewals', '2 months', 'to upsell_…'. */
function saveOfferTerms(offer: SaveOfferListing): string {
  if (offer.action === 'discount') return `${offer.percent_off}% off ${offer.renewals} renewals`;
  if (offer.action === 'pause') return `${offer.months} months`;
  return `to ${offer.plan_after}`;
}

export const SAVE_OFFER_COLUMNS: readonly Column<SaveOfferListing>[] = [
  { header: 'subscription', cell: (offer) => offer.subscription_id },
  { header: 'action', cell: (offer) => offer.action },
  { header: 'terms', cell: saveOfferTerms },
  { header: 'plan', cell: (offer) => offer.plan_before },
  { header: 'paused until (UTC)', cell: (offer) => shortTime(offer.paused_until) },
  { header: 'experiment', cell: (offer) => offer.experiment },
  { header: 'variant', cell: (offer) => offer.variant },
  { header: 'brand', cell: (offer) => offer.brand },
  { header: 'language', cell: (offer) => offer.language },
  { header: 'taken (UTC)', cell: (offer) => shortTime(offer.taken_at) },
];

export const REMINDER_COLUMNS: readonly Column<ReminderListing>[] = [
  { header: 'subscription', cell: (reminder) => reminder.subscription_id },
  { header: 'kind', cell: (reminder) => reminder.kind },
  { header: 'price', cell: (reminder) => `${reminder.price.toFixed(2)} ${reminder.currency}` },
  { header: 'renews (UTC)', cell: (reminder) => shortTime(reminder.renews_at) },
  { header: 'language', cell: (reminder) => reminder.language },
  { header: 'manage link', cell: (reminder) => reminder.manage_url },
  { header: 'asked (UTC)', cell: (reminder) => shortTime(reminder.asked_at) },
];
