import type {
  ScheduledReminderEntry,
  ScheduledRemindersAnswer,
} from '../../shared/console-api/reminders';
import { describeError, logError } from '../../shared/log';
import { REMINDER_KINDS, type ReminderKind } from '../../shared/plans/renewal-reminders';
import type { SubscriptionLedger } from './ledger';
import { LEDGER_SHARD_COUNT, ledgerShardStub } from './ledger-shard';
import type { ScheduledReminder, ScheduledShard } from './reminder-rows';

/**
 * The renewal reminders scheduled across the ledger's shards, for the console (GET
 * /console/api/reminders, worker/console/reminders-route.ts): each shard asked once, in
 * parallel, for its `limit` soonest and its counts (reminder-rows.ts scheduledReminders), merged
 * soonest first. A shard that fails is named, not fatal: the operator still sees the other
 * fifteen, as the cron still asks for them (reminders.ts runs its shards apart, too).
 */

/** One shard's answer, or null when it failed. */
type ShardRead = ScheduledShard | null;

/** Soonest ask first; then by subscription and kind, as each shard orders its own. */
function sooner(a: ScheduledReminder, b: ScheduledReminder): number {
  if (a.askAt !== b.askAt) return a.askAt - b.askAt;
  if (a.subscriptionId !== b.subscriptionId) return a.subscriptionId < b.subscriptionId ? -1 : 1;
  return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;
}

/** Alphabetical, the unknown country last. */
function countryOrder(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function entryOf(reminder: ScheduledReminder): ScheduledReminderEntry {
  return {
    kind: reminder.kind,
    subscriptionId: reminder.subscriptionId,
    askAt: new Date(reminder.askAt).toISOString(),
    renewsAt: new Date(reminder.renewsAt).toISOString(),
    plan: reminder.planId,
    country: reminder.country,
    language: reminder.language,
    brand: reminder.theme,
    leased: reminder.leased,
  };
}

/**
 * The shards' reads (by index) as the console's answer at `now`: the `limit` soonest of all
 * (each shard gave its own `limit` soonest, so these are the true soonest), the totals of the
 * shards that answered, and the indexes of those that did not. Pure.
 */
function mergeScheduledShards(
  reads: readonly ShardRead[],
  limit: number,
  now: number,
): ScheduledRemindersAnswer {
  const byKind = Object.fromEntries(REMINDER_KINDS.map((kind) => [kind, 0])) as Record<
    ReminderKind,
    number
  >;
  const countries = new Map<string | null, number>();
  const all: ScheduledReminder[] = [];
  const unavailable: number[] = [];
  reads.forEach((read, index) => {
    if (read === null) {
      unavailable.push(index);
      return;
    }
    all.push(...read.reminders);
    for (const { kind, country, count } of read.counts) {
      byKind[kind] += count;
      countries.set(country, (countries.get(country) ?? 0) + count);
    }
  });
  const byCountry = [...countries]
    .map(([country, count]) => ({ country, count }))
    .sort((a, b) => b.count - a.count || countryOrder(a.country, b.country));
  return {
    at: new Date(now).toISOString(),
    reminders: all.sort(sooner).slice(0, limit).map(entryOf),
    total: byCountry.reduce((sum, { count }) => sum + count, 0),
    byKind,
    byCountry,
    unavailable,
  };
}

/**
 * How long the console waits for one shard: a shard that hangs (busy with a burst of lifecycle
 * events, or stuck) is named as one that failed, and the page shows the other fifteen, rather
 * than the operator waiting on the slowest shard for ever.
 */
const SHARD_READ_TIMEOUT_MS = 5000;

/** `read`, or a rejection once `ms` have passed without its answer. */
async function within<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Every shard's scheduled reminders at `now`, the `limit` soonest listed. */
export async function readScheduledReminders(
  ledger: DurableObjectNamespace<SubscriptionLedger>,
  now: number,
  limit: number,
  timeoutMs = SHARD_READ_TIMEOUT_MS,
): Promise<ScheduledRemindersAnswer> {
  const reads = await Promise.all(
    Array.from({ length: LEDGER_SHARD_COUNT }, async (_, index): Promise<ShardRead> => {
      try {
        const shard = ledgerShardStub(ledger, index);
        return await within(shard.scheduledReminders(now, limit), timeoutMs);
      } catch (error) {
        logError('scheduled_reminders_failed', { shard: index, detail: describeError(error) });
        return null;
      }
    }),
  );
  return mergeScheduledShards(reads, limit, now);
}
