import { type SubscriptionState, subscriptionStateOf } from '../subscription-state';
import { listPayments, type PaymentListing, totalsOf } from './subscription-payments';

/**
 * What `npm run portal` lists (scripts/portal/listings.ts), oldest first, as stored: the
 * developer's view of what the funnel did against the emulator.
 */

export interface UserListing {
  id: string;
  email: string;
  name: string;
  registration_source: string;
  landing_type: string;
  created_at: string;
}

export interface SubscriptionListing {
  id: string;
  email: string | null;
  plan_id: string;
  gateway: string;
  /** What the subscription is now (portal/subscription-state.ts), not only its first charge's outcome. */
  state: SubscriptionState;
  price_with_discount: number | null;
  /** Every payment taken and every amount given back, minor units of `currency`. */
  charged_minor: number;
  returned_minor: number;
  currency: string | null;
  created_at: string;
}

interface SubscriptionRow {
  id: string;
  email: string | null;
  plan_id: string;
  gateway: string;
  status: string;
  price_with_discount: number | null;
  created_at: string;
  canceled_at: string | null;
  refunded_at: string | null;
  charged_back_at: string | null;
  due_open: number;
}

export interface LookupListing {
  phone: string;
  valid: number;
  country: string | null;
  consent_sms_at: string | null;
  created_at: string;
}

/** Every row a listing's query answers: the listings are a developer's, never paged. */
async function listed<Row>(db: D1Database, query: string): Promise<Row[]> {
  const { results } = await db.prepare(query).all<Row>();
  return results;
}

export function listUsers(db: D1Database): Promise<UserListing[]> {
  return listed(
    db,
    'SELECT id, email, name, registration_source, landing_type, created_at FROM users ORDER BY created_at, id',
  );
}

/** Every subscription with its state at `now` and what its payments came to. */
export async function listSubscriptions(
  db: D1Database,
  now: number = Date.now(),
): Promise<SubscriptionListing[]> {
  const rows = await listed<SubscriptionRow>(
    db,
    `SELECT s.id, u.email, s.plan_id, s.gateway, s.status, s.price_with_discount, s.created_at,
       s.canceled_at, s.refunded_at, s.charged_back_at,
       EXISTS (SELECT 1 FROM renewal_dues d WHERE d.subscription_id = s.id AND d.paid_at IS NULL)
         AS due_open
     FROM subscriptions s LEFT JOIN users u ON u.id = s.user_id
     ORDER BY s.created_at, s.id`,
  );
  const payments = new Map<string, PaymentListing[]>();
  for (const payment of await listPayments(db)) {
    payments.set(payment.subscription_id, [
      ...(payments.get(payment.subscription_id) ?? []),
      payment,
    ]);
  }
  return rows.map((row) => listingOf(row, payments.get(row.id) ?? [], now));
}

function listingOf(
  row: SubscriptionRow,
  payments: readonly PaymentListing[],
  now: number,
): SubscriptionListing {
  const totals = totalsOf(payments);
  const state = subscriptionStateOf(
    {
      status: row.status,
      planId: row.plan_id,
      createdAt: row.created_at,
      canceledAt: row.canceled_at,
      refundedAt: row.refunded_at,
      chargedBackAt: row.charged_back_at,
      dueOpen: row.due_open === 1,
      renewals: payments.filter((p) => p.kind === 'renewal' || p.kind === 'recovery').length,
      totals,
    },
    now,
  );
  return {
    id: row.id,
    email: row.email,
    plan_id: row.plan_id,
    gateway: row.gateway,
    state,
    price_with_discount: row.price_with_discount,
    charged_minor: totals.chargedMinor,
    returned_minor: totals.returnedMinor,
    currency: payments[0]?.currency ?? null,
    created_at: row.created_at,
  };
}

export function listLookups(db: D1Database): Promise<LookupListing[]> {
  return listed(
    db,
    'SELECT phone, valid, country, consent_sms_at, created_at FROM phone_lookups ORDER BY id',
  );
}

/** A renewal reminder the worker asked for (portal/routes/reminders.ts). */
export interface ReminderListing {
  subscription_id: string;
  kind: string;
  price: number;
  currency: string;
  renews_at: string;
  language: string | null;
  brand: string | null;
  manage_url: string | null;
  asked_at: string;
}

export function listReminders(db: D1Database): Promise<ReminderListing[]> {
  return listed(
    db,
    `SELECT subscription_id, kind, price, currency, renews_at, language, brand, manage_url, asked_at
     FROM reminder_requests ORDER BY asked_at, reminder_id`,
  );
}

/**
 * A withdrawal or cancellation declared on the contract page (portal/routes/contract-requests.ts),
 * or a link asked for by email (portal/routes/link-requests.ts): `kind` `link` for the latter,
 * its `outcome` `emailed` or `not_matched`.
 */
export interface DeclarationListing {
  kind: string;
  email: string;
  reference: string | null;
  subscription_id: string | null;
  outcome: string;
  brand: string | null;
  language: string | null;
  at: string;
}

export function listDeclarations(db: D1Database): Promise<DeclarationListing[]> {
  return listed(
    db,
    `SELECT kind, email, reference, subscription_id, outcome, brand, language, received_at AS at
       FROM contract_requests
     UNION ALL
     SELECT 'link', email, NULL, subscription_id,
       CASE WHEN manage_url IS NULL THEN 'not_matched' ELSE 'emailed' END, brand, language, asked_at
       FROM link_requests
     ORDER BY at`,
  );
}

/**
 * A save offer a subscriber took instead of cancelling (portal/save-offers.ts): what it did (a
 * discount's share and renewals, a pause's months and end, a switch's plans) and which test arm
 * offered it.
 */
export interface SaveOfferListing {
  subscription_id: string;
  action: string;
  percent_off: number | null;
  renewals: number | null;
  months: number | null;
  plan_before: string;
  plan_after: string;
  paused_until: string | null;
  experiment: string | null;
  variant: string | null;
  brand: string | null;
  language: string | null;
  taken_at: string;
}

export function listSaveOffers(db: D1Database): Promise<SaveOfferListing[]> {
  return listed(
    db,
    `SELECT subscription_id, action, percent_off, renewals, months, plan_before, plan_after,
       paused_until, experiment, variant, brand, language, taken_at
     FROM save_offers ORDER BY taken_at, id`,
  );
}

/** The tables of portal/migrations; a database without them has not been migrated. */
const PORTAL_TABLES = ['users', 'subscriptions', 'phone_lookups', 'emulator_faults'];

export async function isMigrated(db: D1Database): Promise<boolean> {
  const placeholders = PORTAL_TABLES.map(() => '?').join(', ');
  const count = await db
    .prepare(
      `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN (${placeholders})`,
    )
    .bind(...PORTAL_TABLES)
    .first<number>('n');
  return count === PORTAL_TABLES.length;
}
