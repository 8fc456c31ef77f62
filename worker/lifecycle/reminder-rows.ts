import { isPlanId, planById } from '../../shared/plans/catalogue';
import {
  firstReminders,
  laterReminder,
  type ReminderKind,
} from '../../shared/plans/renewal-reminders';

/**
 * The renewal reminders a ledger shard keeps (its `reminders` table, ledger-schema.ts): at most
 * one of each kind (trial end, yearly, before a renewal) per subscription, each the next to ask
 * for, scheduled by shared/plans/renewal-reminders.ts. The cron takes the due ones
 * (reminders.ts), marking them taken for REMINDER_LEASE_MS so a second run at the same time
 * leaves them alone, and reports back: asked (the row goes, a yearly or renewal one becomes the
 * next), failed (the lease is lifted, the
 * next run asks again with the same reminder id), or the subscription gone (its rows go). A row
 * whose renewal passed unasked is taken out as missed. Functions over the shard's SQL, called
 * inside its methods (ledger.ts).
 */

/**
 * What a purchase tells the reminders: its plan, when and where it was bought, in what brand and
 * language.
 */
export interface ReminderFacts {
  planId: string;
  chargedAt: number;
  country: string | null;
  language: string | null;
  /** The theme (brand) it was bought in; null when unknown (a purchase recorded before it was kept). */
  theme: string | null;
  /** The funnel's origin the purchase was made on, for the manage link; null when unknown. */
  origin: string | null;
}

/** One reminder as the cron asks for it. */
export interface DueReminder {
  /** `<subscription>:<kind>:<renews_at>`: the ask's Idempotency-Key, the same on every retry. */
  reminderId: string;
  subscriptionId: string;
  kind: ReminderKind;
  renewsAt: number;
  askAt: number;
  planId: string;
  country: string | null;
  language: string | null;
  theme: string | null;
  origin: string | null;
}

/**
 * How long a taken reminder is left to the run that took it: longer than its ask can take (the
 * call's 10 s), shorter than the cron's 15 minutes, so a run that died leaves it to the next.
 */
export const REMINDER_LEASE_MS = 5 * 60_000;

type ReminderRow = {
  subscription_id: string;
  kind: ReminderKind;
  renews_at: number;
  ask_at: number;
  plan_id: string;
  charged_at: number;
  country: string | null;
  language: string | null;
  theme: string | null;
  origin: string | null;
};

const COLUMNS =
  'subscription_id, kind, renews_at, ask_at, plan_id, charged_at, country, language, theme, origin';

function dueOf(row: ReminderRow): DueReminder {
  return {
    reminderId: `${row.subscription_id}:${row.kind}:${row.renews_at}`,
    subscriptionId: row.subscription_id,
    kind: row.kind,
    renewsAt: row.renews_at,
    askAt: row.ask_at,
    planId: row.plan_id,
    country: row.country,
    language: row.language,
    theme: row.theme,
    origin: row.origin,
  };
}

/** A new subscription's first reminders; a plan outside the catalogue has none to compute. */
export function scheduleReminders(
  sql: SqlStorage,
  subscriptionId: string,
  facts: ReminderFacts,
): void {
  if (!isPlanId(facts.planId)) return;
  for (const due of firstReminders(planById(facts.planId), facts.chargedAt, facts.country)) {
    sql.exec(
      `INSERT OR IGNORE INTO reminders (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      subscriptionId,
      due.kind,
      due.renewsAt,
      due.askAt,
      facts.planId,
      facts.chargedAt,
      facts.country,
      facts.language,
      facts.theme,
      facts.origin,
    );
  }
}

/**
 * At `now`: the reminders whose renewal passed unasked, taken out (missed), and up to `limit`
 * due ones not taken by a live run, taken for this one.
 */
export function takeDueReminders(
  sql: SqlStorage,
  now: number,
  limit: number,
): { due: DueReminder[]; missed: DueReminder[] } {
  const missed = sql
    .exec<ReminderRow>(`DELETE FROM reminders WHERE renews_at <= ? RETURNING ${COLUMNS}`, now)
    .toArray()
    .map(dueOf);
  const due = sql
    .exec<ReminderRow>(
      `UPDATE reminders SET asking_since = ?1
       WHERE (subscription_id, kind) IN (
         SELECT subscription_id, kind FROM reminders
         WHERE ask_at <= ?1 AND (asking_since IS NULL OR asking_since <= ?1 - ?2)
         ORDER BY ask_at LIMIT ?3
       )
       RETURNING ${COLUMNS}`,
      now,
      REMINDER_LEASE_MS,
      limit,
    )
    .toArray()
    .map(dueOf);
  return { due, missed };
}

type ReminderKey = Pick<DueReminder, 'subscriptionId' | 'kind' | 'renewsAt'>;

/** The product API took the reminder: the row goes, a yearly one becomes next year's. */
export function reminderAsked(sql: SqlStorage, asked: ReminderKey): void {
  const [row] = sql
    .exec<ReminderRow>(
      `SELECT ${COLUMNS} FROM reminders WHERE subscription_id = ? AND kind = ? AND renews_at = ?`,
      asked.subscriptionId,
      asked.kind,
      asked.renewsAt,
    )
    .toArray();
  if (row === undefined) return;
  const bought = { chargedAt: row.charged_at, country: row.country };
  const next = isPlanId(row.plan_id)
    ? laterReminder(row.kind, planById(row.plan_id), bought, row.renews_at)
    : null;
  if (next === null) {
    sql.exec(
      'DELETE FROM reminders WHERE subscription_id = ? AND kind = ?',
      row.subscription_id,
      row.kind,
    );
    return;
  }
  sql.exec(
    `UPDATE reminders SET renews_at = ?, ask_at = ?, asking_since = NULL
     WHERE subscription_id = ? AND kind = ?`,
    next.renewsAt,
    next.askAt,
    row.subscription_id,
    row.kind,
  );
}

/** The ask failed: the next run asks again, with the same reminder id. */
export function releaseReminder(sql: SqlStorage, failed: ReminderKey): void {
  sql.exec(
    `UPDATE reminders SET asking_since = NULL
     WHERE subscription_id = ? AND kind = ? AND renews_at = ?`,
    failed.subscriptionId,
    failed.kind,
    failed.renewsAt,
  );
}

/** The subscription ended (cancelled, or the product API no longer knows it): nothing to remind. */
export function forgetReminders(sql: SqlStorage, subscriptionId: string): void {
  sql.exec('DELETE FROM reminders WHERE subscription_id = ?', subscriptionId);
}

/**
 * One scheduled reminder as the console lists it (worker/console/reminders-route.ts): what the
 * cron would ask for, without the ask's key and origin, and whether a run has it now.
 */
export type ScheduledReminder = Omit<DueReminder, 'reminderId' | 'origin'> & {
  /** Taken by a cron run whose lease (REMINDER_LEASE_MS) has not ended: being asked for now. */
  leased: boolean;
};

/** How many reminders of a kind are scheduled for a country (null: none known). */
export interface ReminderCount {
  kind: ReminderKind;
  country: string | null;
  count: number;
}

/** A shard's scheduled reminders: the soonest, and how many there are in all. */
export interface ScheduledShard {
  /** Soonest ask first (then by subscription and kind, the order every shard reads them in). */
  reminders: ScheduledReminder[];
  counts: ReminderCount[];
}

type ScheduledRow = Omit<ReminderRow, 'charged_at' | 'origin'> & { leased: number };

/**
 * At `now`: the `limit` reminders to be asked for soonest, read along the `reminders_due` index
 * (ask_at, then the key it ends in), and the counts the `reminder_counts` triggers keep, so the
 * read costs `limit` rows and a few dozen counts however many reminders the shard holds.
 * Reads only: what the cron takes stays the cron's. A row whose renewal has passed is still
 * listed until the next run takes it out as missed.
 */
export function scheduledReminders(sql: SqlStorage, now: number, limit: number): ScheduledShard {
  const reminders = sql
    .exec<ScheduledRow>(
      `SELECT subscription_id, kind, renews_at, ask_at, plan_id, country, language, theme,
              asking_since IS NOT NULL AND asking_since > ?1 - ?2 AS leased
       FROM reminders ORDER BY ask_at, subscription_id, kind LIMIT ?3`,
      now,
      REMINDER_LEASE_MS,
      limit,
    )
    .toArray()
    .map((row) => ({
      subscriptionId: row.subscription_id,
      kind: row.kind,
      renewsAt: row.renews_at,
      askAt: row.ask_at,
      planId: row.plan_id,
      country: row.country,
      language: row.language,
      theme: row.theme,
      leased: row.leased === 1,
    }));
  const counts = sql
    .exec<{ kind: ReminderKind; country: string; scheduled: number }>(
      'SELECT kind, country, scheduled FROM reminder_counts WHERE scheduled > 0',
    )
    .toArray()
    .map((row) => ({ kind: row.kind, country: row.country || null, count: row.scheduled }));
  return { reminders, counts };
}
