import { DurableObject } from 'cloudflare:workers';
import { logWarning } from '../../shared/log';
import type { Bindings } from '../env';
import { VISITOR_ROWS_KEPT_MS } from '../experiments/assignment/assign';
import type { RevenueEvent } from '../experiments/store/revenue-events';
import { runSqliteMigrations } from '../sqlite-migrations';
import type { LinkLook } from '../subscriber-links/link-token';
import type { SubscriptionEvent } from './apply';
import { LEDGER_MIGRATIONS } from './ledger-schema';
import { failureStep } from './open-failure';
import {
  type DueReminder,
  forgetReminders,
  type ReminderFacts,
  releaseReminder,
  reminderAsked,
  type ScheduledShard,
  scheduledReminders,
  scheduleReminders,
  takeDueReminders,
} from './reminder-rows';
import { countedIn, type FitRefusal, fitRefusal, type SubscriptionMoney } from './subscription-fit';

const SCANNED_AT_KEY = 'scannedAt';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claimed event may take to reach the experiments before another delivery of it may
 * take over: a shard call takes milliseconds, so a claim this old belongs to a request that died
 * between claiming and settling (an isolate evicted), and would otherwise block its event for good.
 */
export const CLAIM_TIMEOUT_MS = 30_000;

/**
 * How long an event of a subscription the ledger does not know yet is held for its purchase. The
 * purchase reaches the ledger through the events queue
 * (worker/collector/consumer/ledger-destination.ts), seconds after it was verified, and at worst
 * after the queue's retries, about 4 hours (wrangler.toml max_retries;
 * worker/collector/consumer/outcome.ts): a subscription still unknown a day later never will be
 * (its message is in the dead letters, or it was bought before the ledger existed).
 */
export const PARKED_MS = DAY_MS;

/**
 * How long an event id is remembered. The product API retries a failed delivery for hours or days
 * (Stripe: 3 days); a month covers any retry schedule, and an event sent again after that is
 * still counted once by the experiment shard, which keeps its own event ids.
 */
export const EVENT_IDS_KEPT_MS = 30 * DAY_MS;

/**
 * The alarm's rhythm: daily it forgets stale signatures and gives up on parked events (both
 * small, indexed or bounded); weekly it scans the two large tables for rows past their
 * retention, which has no index (it would cost every row about 40 bytes more).
 */
const ALARM_EVERY_MS = DAY_MS;
const SCAN_EVERY_MS = 7 * DAY_MS;

/** Signatures past their freshness are dropped on the way, at most this often. */
const SIGNATURE_SWEEP_MS = 60_000;

/** Who bought a subscription: from a server-verified purchase, never from a lifecycle call. */
export interface Buyer {
  subscriptionId: string;
  visitorId: string;
  /** What the verified purchase charged, in minor units and its currency; null when unknown. */
  paidMinor: number | null;
  currency: string | null;
  /** What its renewal reminders are scheduled from (reminder-rows.ts); none when absent. */
  reminders?: ReminderFacts;
}

/** A subscription's row. */
type SubscriptionRow = {
  visitor_id: string;
  currency: string | null;
  paid_minor: number | null;
  returned_minor: number;
  /** Its open failed renewal (open-failure.ts), epoch ms; null when nothing is owed. */
  failed_at: number | null;
};

/** A held event as the experiments take it: with its buyer, and marked when it recovered. */
function held(event: SubscriptionEvent, buyer: SubscriptionRow, recovered: boolean): RevenueEvent {
  return { ...event, visitorId: buyer.visitor_id, ...(recovered ? { recovered: true } : {}) };
}

/** A held event's row, as remember reads it. */
type HeldRow = { event: string; amount_minor: number | null; closed_failure_at: number | null };

/** An event id's row, as begin reads it. */
type KnownEvent = {
  state: string;
  seen_at: number;
  amount_minor: number | null;
  closed_failure_at: number | null;
};

function moneyOf(row: SubscriptionRow): SubscriptionMoney {
  return { currency: row.currency, paidMinor: row.paid_minor, returnedMinor: row.returned_minor };
}

/** The signature that carried an event, and until when it is fresh (epoch ms). */
export interface SeenSignature {
  signature: string;
  freshUntil: number;
}

/** What the ledger made of an event: what the endpoint answers. */
export type Begun =
  /**
   * Yours to pass to the experiments, then `settle` (or `release` on failure) with `claim`;
   * `recovered`: a renewal that paid the subscription's open failure (open-failure.ts).
   */
  | { kind: 'claimed'; visitorId: string; claim: string; recovered: boolean }
  /** Its subscription is not known (yet): held for PARKED_MS in case its purchase arrives. */
  | { kind: 'parked' }
  /** This event id was taken before. */
  | { kind: 'duplicate' }
  /** Another delivery of it is being passed on right now. */
  | { kind: 'in_progress'; retryAfterSeconds: number }
  /** This very signature was seen before: a replayed request. */
  | { kind: 'replayed' }
  /** It does not fit its subscription (subscription-fit.ts): not counted, not kept. */
  | { kind: 'refused'; refusal: FitRefusal; detail: string };

/** What the 422 tells the product API: the subscription's side, in minor units. */
function refusalDetail(refusal: FitRefusal, event: SubscriptionEvent, money: SubscriptionMoney) {
  if (refusal === 'currency_mismatch') {
    return `a ${event.kind} in ${event.currency ?? 'no currency'} of a subscription paid in ${money.currency ?? 'an unknown currency'}`;
  }
  return `a ${event.kind} of ${-event.amountMinor} would bring what went back to ${money.returnedMinor - event.amountMinor}, over the ${money.paidMinor ?? 0} paid (minor units of ${money.currency ?? ''})`;
}

/**
 * One shard of the subscription ledger (ledger-shard.ts decides whose): which visitor bought each
 * subscription, the lifecycle event ids seen (each counts once), and the fresh signatures seen
 * (each request counts once), in the object's own SQLite (ledger-schema.ts). Every call is one
 * synchronous transaction, so two deliveries of one event cannot both claim it.
 */
export class SubscriptionLedger extends DurableObject<Bindings> {
  private signaturesSweptAt = 0;
  private alarmSet = false;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => runSqliteMigrations(ctx.storage, LEDGER_MIGRATIONS));
  }

  private async keepAlarmSet(): Promise<void> {
    if (this.alarmSet) return;
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + ALARM_EVERY_MS);
    }
    this.alarmSet = true;
  }

  /**
   * Takes an event that arrived with a valid `signature` at `now`: refuses the signature if it
   * was seen before, answers a known event id as a duplicate (or in progress), and otherwise
   * claims the event for its buyer, or holds it when the buyer is not known.
   */
  async begin(event: SubscriptionEvent, seen: SeenSignature, now: number): Promise<Begun> {
    const sql = this.ctx.storage.sql;
    const begun = this.ctx.storage.transactionSync((): Begun => {
      if (now - this.signaturesSweptAt >= SIGNATURE_SWEEP_MS) {
        sql.exec('DELETE FROM signatures WHERE fresh_until < ?', now);
        this.signaturesSweptAt = now;
      }
      const taken = sql
        .exec(
          'INSERT OR IGNORE INTO signatures (signature, fresh_until) VALUES (?, ?) RETURNING signature',
          seen.signature,
          seen.freshUntil,
        )
        .toArray();
      if (taken.length === 0) return { kind: 'replayed' };

      const [known] = sql
        .exec<KnownEvent>(
          'SELECT state, seen_at, amount_minor, closed_failure_at FROM events WHERE event_id = ?',
          event.eventId,
        )
        .toArray();
      if (known && known.state !== 'claimed') return { kind: 'duplicate' };
      if (known && now - known.seen_at < CLAIM_TIMEOUT_MS) {
        const seconds = Math.ceil((known.seen_at + CLAIM_TIMEOUT_MS - now) / 1000);
        return { kind: 'in_progress', retryAfterSeconds: Math.max(1, seconds) };
      }
      // New, or a claim whose request died: claimed (again) below.

      const buyer = this.subscription(event.subscriptionId);
      if (!buyer) {
        sql.exec(
          `INSERT OR REPLACE INTO events (event_id, subscription_id, state, seen_at, event)
           VALUES (?, ?, 'parked', ?, ?)`,
          event.eventId,
          event.subscriptionId,
          now,
          JSON.stringify(event),
        );
        return { kind: 'parked' };
      }
      return this.claim(event, buyer, known, now);
    });
    await this.keepAlarmSet();
    return begun;
  }

  /**
   * Judges a new event (or a dead claim's) against its subscription's money, and claims it if it
   * fits: its money and its step on the open failure written in the same transaction.
   */
  private claim(
    event: SubscriptionEvent,
    buyer: SubscriptionRow,
    known: KnownEvent | undefined,
    now: number,
  ): Begun {
    const sql = this.ctx.storage.sql;
    // A dead claim's money goes with it: the delivery taking over counts the event afresh, and
    // the failure it closed is open again for it.
    let money = moneyOf(buyer);
    if (known?.amount_minor != null)
      money = countedIn(money, { amountMinor: known.amount_minor }, -1);
    const open = known?.closed_failure_at ?? buyer.failed_at;
    const refusal = fitRefusal(event, money);
    if (refusal !== null) {
      // Nothing of it is kept (the signature is, as every fresh one): a corrected delivery of
      // the same event id is judged afresh.
      if (known) sql.exec('DELETE FROM events WHERE event_id = ?', event.eventId);
      this.writeMoney(event.subscriptionId, money);
      this.writeFailure(event.subscriptionId, open);
      return { kind: 'refused', refusal, detail: refusalDetail(refusal, event, money) };
    }
    this.writeMoney(event.subscriptionId, countedIn(money, event));
    const step = failureStep(event.kind, open, event.at);
    this.writeFailure(event.subscriptionId, step.failedAt);
    if (event.kind === 'cancellation') forgetReminders(sql, event.subscriptionId);
    // The claim's token is kept in `event` while it is claimed: only its claimant settles or
    // releases it, not a request that lost it to a takeover.
    const claim = crypto.randomUUID();
    sql.exec(
      `INSERT OR REPLACE INTO events
         (event_id, subscription_id, state, seen_at, event, amount_minor, closed_failure_at)
       VALUES (?, ?, 'claimed', ?, ?, ?, ?)`,
      event.eventId,
      event.subscriptionId,
      now,
      claim,
      event.amountMinor,
      step.closed,
    );
    return { kind: 'claimed', visitorId: buyer.visitor_id, claim, recovered: step.recovered };
  }

  /** The claimed event reached the experiments: any later delivery of it is a duplicate. */
  async settle(eventId: string, claim: string): Promise<void> {
    this.ctx.storage.sql.exec(
      `UPDATE events SET state = 'applied', event = NULL, amount_minor = NULL,
         closed_failure_at = NULL
       WHERE event_id = ? AND state = 'claimed' AND event = ?`,
      eventId,
      claim,
    );
  }

  /**
   * The claimed event did not reach the experiments: the product API's retry may claim it, and
   * its money is taken back out of its subscription's.
   */
  async release(eventId: string, claim: string): Promise<void> {
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      const [released] = sql
        .exec<{
          subscription_id: string;
          amount_minor: number | null;
          closed_failure_at: number | null;
        }>(
          `DELETE FROM events WHERE event_id = ? AND state = 'claimed' AND event = ?
           RETURNING subscription_id, amount_minor, closed_failure_at`,
          eventId,
          claim,
        )
        .toArray();
      if (released === undefined) return;
      if (released.closed_failure_at !== null) {
        sql.exec(
          'UPDATE subscriptions SET failed_at = coalesce(failed_at, ?) WHERE subscription_id = ?',
          released.closed_failure_at,
          released.subscription_id,
        );
      }
      if (released.amount_minor == null) return;
      const buyer = this.subscription(released.subscription_id);
      if (!buyer) return;
      this.writeMoney(
        released.subscription_id,
        countedIn(moneyOf(buyer), { amountMinor: released.amount_minor }, -1),
      );
    });
  }

  /** The subscription's buyer and money, or undefined when it is not known. */
  private subscription(subscriptionId: string): SubscriptionRow | undefined {
    const [row] = this.ctx.storage.sql
      .exec<SubscriptionRow>(
        `SELECT visitor_id, currency, paid_minor, returned_minor, failed_at FROM subscriptions
         WHERE subscription_id = ?`,
        subscriptionId,
      )
      .toArray();
    return row;
  }

  private writeFailure(subscriptionId: string, failedAt: number | null): void {
    this.ctx.storage.sql.exec(
      'UPDATE subscriptions SET failed_at = ? WHERE subscription_id = ?',
      failedAt,
      subscriptionId,
    );
  }

  private writeMoney(subscriptionId: string, money: SubscriptionMoney): void {
    this.ctx.storage.sql.exec(
      'UPDATE subscriptions SET paid_minor = ?, returned_minor = ? WHERE subscription_id = ?',
      money.paidMinor,
      money.returnedMinor,
      subscriptionId,
    );
  }

  /**
   * Remembers who bought each subscription (the first buyer stays) and what they paid, and
   * answers the events held for these subscriptions since `now - PARKED_MS`, with their buyer:
   * the caller passes them to the experiments, then calls `settleParked`. Until then they stay
   * held, so a failure in between is retried with the purchase's message (an event counted in
   * its subscription's money on the first try is not counted again). A held event that does not
   * fit its subscription (subscription-fit.ts) is dropped and logged: it was answered 202 long
   * ago, and a delivery of it again is judged, and refused, afresh.
   */
  async remember(buyers: readonly Buyer[], now: number): Promise<RevenueEvent[]> {
    if (buyers.length === 0) return [];
    const sql = this.ctx.storage.sql;
    const list = JSON.stringify(buyers);
    const held = this.ctx.storage.transactionSync(() => {
      const added = sql
        .exec<{ subscription_id: string }>(
          `INSERT OR IGNORE INTO subscriptions
             (subscription_id, visitor_id, remembered_at, currency, paid_minor, theme, language)
           SELECT json_extract(value, '$.subscriptionId'), json_extract(value, '$.visitorId'), ?,
                  json_extract(value, '$.currency'), json_extract(value, '$.paidMinor'),
                  json_extract(value, '$.reminders.theme'),
                  json_extract(value, '$.reminders.language')
           FROM json_each(?) WHERE true
           RETURNING subscription_id`,
          now,
          list,
        )
        .toArray();
      // Only a subscription new here: a purchase's message delivered again schedules nothing twice.
      const fresh = new Set(added.map((row) => row.subscription_id));
      for (const buyer of buyers) {
        if (buyer.reminders && fresh.has(buyer.subscriptionId)) {
          scheduleReminders(sql, buyer.subscriptionId, buyer.reminders);
        }
      }
      const rows = sql
        .exec<HeldRow>(
          `SELECT event, amount_minor, closed_failure_at FROM events
           WHERE state = 'parked' AND seen_at >= ?
             AND subscription_id IN (SELECT json_extract(value, '$.subscriptionId') FROM json_each(?))
           ORDER BY seen_at, event_id`,
          now - PARKED_MS,
          list,
        )
        .toArray();
      return rows.flatMap((row) => this.passHeld(row));
    });
    await this.keepAlarmSet();
    return held;
  }

  /**
   * A held event whose buyer is now known, as the experiments take it: judged and counted in its
   * subscription's money and open failure the first time (`amount_minor` null), as counted then
   * on a retry; none when it does not fit (dropped and logged).
   */
  private passHeld(row: HeldRow): RevenueEvent[] {
    const sql = this.ctx.storage.sql;
    const event = JSON.parse(row.event) as SubscriptionEvent;
    const buyer = this.subscription(event.subscriptionId);
    if (!buyer) return [];
    if (row.amount_minor !== null) {
      return [held(event, buyer, row.closed_failure_at !== null && event.kind === 'renewal')];
    }
    const money = moneyOf(buyer);
    const refusal = fitRefusal(event, money);
    if (refusal !== null) {
      sql.exec('DELETE FROM events WHERE event_id = ?', event.eventId);
      logWarning('lifecycle_event_refused', {
        event_id: event.eventId,
        refusal,
        held: true,
        detail: refusalDetail(refusal, event, money),
      });
      return [];
    }
    this.writeMoney(event.subscriptionId, countedIn(money, event));
    const step = failureStep(event.kind, buyer.failed_at, event.at);
    this.writeFailure(event.subscriptionId, step.failedAt);
    if (event.kind === 'cancellation') forgetReminders(sql, event.subscriptionId);
    sql.exec(
      'UPDATE events SET amount_minor = ?, closed_failure_at = ? WHERE event_id = ?',
      event.amountMinor,
      step.closed,
      event.eventId,
    );
    return [held(event, buyer, step.recovered)];
  }

  /**
   * The brand and language `subscriptionId` was bought in, as its purchase was remembered; null
   * when unknown (not remembered here, or remembered before they were kept).
   */
  async lookOf(subscriptionId: string): Promise<LinkLook | null> {
    const [row] = this.ctx.storage.sql
      .exec<{ theme: string | null; language: string | null }>(
        'SELECT theme, language FROM subscriptions WHERE subscription_id = ?',
        subscriptionId,
      )
      .toArray();
    return row?.theme && row.language ? { theme: row.theme, language: row.language } : null;
  }

  /** Held events `remember` answered reached the experiments. */
  async settleParked(eventIds: readonly string[]): Promise<void> {
    if (eventIds.length === 0) return;
    this.ctx.storage.sql.exec(
      `UPDATE events SET state = 'applied', event = NULL, amount_minor = NULL,
         closed_failure_at = NULL
       WHERE state = 'parked' AND event_id IN (SELECT value FROM json_each(?))`,
      JSON.stringify(eventIds),
    );
  }

  /**
   * The reminders due at `now` (at most `limit`), taken for the caller's run, and those whose
   * renewal passed unasked, taken out: the cron's side of reminder-rows.ts.
   */
  async takeDueReminders(
    now: number,
    limit: number,
  ): Promise<{ due: DueReminder[]; missed: DueReminder[] }> {
    return this.ctx.storage.transactionSync(() =>
      takeDueReminders(this.ctx.storage.sql, now, limit),
    );
  }

  /** The product API took this reminder (reminder-rows.ts reminderAsked). */
  async reminderAsked(asked: Pick<DueReminder, 'subscriptionId' | 'kind' | 'renewsAt'>) {
    this.ctx.storage.transactionSync(() => reminderAsked(this.ctx.storage.sql, asked));
  }

  /** The ask failed: the next run asks again. */
  async releaseReminder(failed: Pick<DueReminder, 'subscriptionId' | 'kind' | 'renewsAt'>) {
    releaseReminder(this.ctx.storage.sql, failed);
  }

  /** The product API no longer knows the subscription: nothing more to remind. */
  async forgetReminders(subscriptionId: string): Promise<void> {
    forgetReminders(this.ctx.storage.sql, subscriptionId);
  }

  /**
   * The reminders of this shard to be asked for soonest at `now` (at most `limit`) and how many
   * there are by kind and country, for the console (reminder-rows.ts scheduledReminders). Reads
   * only; both reads run in one synchronous stretch, which no other call of the shard interleaves,
   * so the list and the counts agree.
   */
  async scheduledReminders(now: number, limit: number): Promise<ScheduledShard> {
    return scheduledReminders(this.ctx.storage.sql, now, limit);
  }

  /** Bytes of the shard's SQLite database, for the storage figures (ledger-storage.test.ts). */
  async databaseSize(): Promise<number> {
    return this.ctx.storage.sql.databaseSize;
  }

  /**
   * Forgets what is past its time at `now`: stale signatures, held events given up on (kept as
   * ids, without their body), and weekly the event ids past EVENT_IDS_KEPT_MS and the
   * subscriptions past VISITOR_ROWS_KEPT_MS (by then the experiments have deleted their buyer's
   * rows, so there is nothing left to count their events against).
   */
  prune(now: number): void {
    const { sql, kv } = this.ctx.storage;
    sql.exec('DELETE FROM signatures WHERE fresh_until < ?', now);
    // A held event counted in its subscription's money by a purchase whose message then failed
    // for a day stays counted: rare, and it errs on the side of what the product API reported.
    sql.exec(
      `UPDATE events SET state = 'expired', event = NULL, amount_minor = NULL
       WHERE state = 'parked' AND seen_at < ?`,
      now - PARKED_MS,
    );
    const scannedAt = kv.get<number>(SCANNED_AT_KEY) ?? 0;
    if (now - scannedAt < SCAN_EVERY_MS) return;
    // One statement each: a single scan of the table, where deleting in chunks would scan it
    // again for every chunk.
    sql.exec('DELETE FROM events WHERE seen_at < ?', now - EVENT_IDS_KEPT_MS);
    sql.exec('DELETE FROM subscriptions WHERE remembered_at < ?', now - VISITOR_ROWS_KEPT_MS);
    kv.put(SCANNED_AT_KEY, now);
  }

  override async alarm(): Promise<void> {
    this.prune(Date.now());
    await this.ctx.storage.setAlarm(Date.now() + ALARM_EVERY_MS);
  }
}
