import type {
  LookupListing,
  ReminderListing,
  SubscriptionListing,
  UserListing,
} from '../../portal/store/listings';
import type { Column } from './table';

/** The columns `npm run portal -- users|subscriptions|lookups|reminders` prints. */

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
  { header: 'status', cell: (subscription) => subscription.status },
  {
    header: 'price',
    cell: (subscription) => subscription.price_with_discount?.toFixed(2) ?? null,
  },
  { header: 'created (UTC)', cell: (subscription) => shortTime(subscription.created_at) },
];

export const LOOKUP_COLUMNS: readonly Column<LookupListing>[] = [
  { header: 'phone', cell: (lookup) => lookup.phone },
  { header: 'valid', cell: (lookup) => (lookup.valid ? 'yes' : 'no') },
  { header: 'country', cell: (lookup) => lookup.country },
  { header: 'consent SMS at (UTC)', cell: (lookup) => shortTime(lookup.consent_sms_at) },
  { header: 'looked up (UTC)', cell: (lookup) => shortTime(lookup.created_at) },
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
