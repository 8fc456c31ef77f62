import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CONSOLE_REMINDERS_PATH,
  SCHEDULED_REMINDERS_SHOWN,
  type ScheduledReminderEntry,
  type ScheduledRemindersAnswer,
} from '../../../shared/console-api/reminders';
import { isPlanId, planById } from '../../../shared/plans/catalogue';
import { firstReminders } from '../../../shared/plans/renewal-reminders';
import { rememberBuyers } from '../../../worker/collector/consumer/ledger-destination';
import type { Buyer } from '../../../worker/lifecycle/ledger';
import { ledgerShardOf, ledgerStub } from '../../../worker/lifecycle/ledger-shard';
import type { ReminderFacts } from '../../../worker/lifecycle/reminder-rows';
import { runReminders } from '../../../worker/lifecycle/reminders';
import { readScheduledReminders } from '../../../worker/lifecycle/scheduled-reminders';
import { freshApp, productionApp } from '../fetch-app';
import { capturedLogs } from '../lifecycle/lifecycle-fixtures';
import { PRODUCTION } from './access-tokens';

/**
 * GET /console/api/reminders (worker/console/reminders-route.ts) through the development worker:
 * the renewal reminders scheduled in the real ledger shards by the purchases' own path
 * (rememberBuyers, as the queue consumer calls it), listed soonest first across the shards,
 * bounded, with totals by kind and country that follow the rows as they come and go; a shard
 * that fails is named and the others still listed; and no list for a request Access did not
 * vouch for.
 */

const logs = capturedLogs();

const DAY = 86_400_000;
const MINUTE = 60_000;
/** The first purchase, 1 March 2026 10:00 UTC; the console is read a day later. */
const BOUGHT = Date.UTC(2026, 2, 1, 10);
const NOW = BOUGHT + DAY;

type Bought = { country: string | null; planId?: string; at?: number; language?: string };

/** Buyers of `bought`, remembered through the ledger's purchase path; their subscription ids. */
async function buy(bought: readonly Bought[]): Promise<string[]> {
  const buyers: Buyer[] = bought.map((one, index) => {
    const reminders: ReminderFacts = {
      planId: one.planId ?? 'monthly_7d_intro_usd',
      chargedAt: one.at ?? BOUGHT + index * MINUTE,
      country: one.country,
      language: one.language ?? 'en',
      theme: 'brainbloom',
      origin: 'https://funnel.example.com',
    };
    return {
      subscriptionId: `sub_${crypto.randomUUID()}`,
      visitorId: crypto.randomUUID(),
      paidMinor: 699,
      currency: 'USD',
      reminders,
    };
  });
  await rememberBuyers(env, buyers, { now: () => BOUGHT, apply: async () => {} });
  return buyers.map((buyer) => buyer.subscriptionId);
}

/** The reminders `bought` schedules, as the answer lists them, soonest first. */
function expectedRows(ids: readonly string[], bought: readonly Bought[]): ScheduledReminderEntry[] {
  return bought
    .flatMap((one, index) => {
      const planId = one.planId ?? 'monthly_7d_intro_usd';
      if (!isPlanId(planId)) return [];
      const at = one.at ?? BOUGHT + index * MINUTE;
      return firstReminders(planById(planId), at, one.country).map((due) => ({
        kind: due.kind,
        subscriptionId: ids[index]!,
        askAt: new Date(due.askAt).toISOString(),
        renewsAt: new Date(due.renewsAt).toISOString(),
        plan: planId,
        country: one.country,
        language: one.language ?? 'en',
        brand: 'brainbloom',
        leased: false,
      }));
    })
    .sort(
      (a, b) =>
        a.askAt.localeCompare(b.askAt) ||
        (a.subscriptionId < b.subscriptionId ? -1 : a.subscriptionId > b.subscriptionId ? 1 : 0) ||
        a.kind.localeCompare(b.kind),
    );
}

async function read(
  fetchApp = freshApp({ now: () => NOW }),
): Promise<{ status: number; answer: ScheduledRemindersAnswer }> {
  const response = await fetchApp(CONSOLE_REMINDERS_PATH);
  return { status: response.status, answer: (await response.json()) as ScheduledRemindersAnswer };
}

beforeEach(async () => {
  // Every earlier test's reminders taken out (their renewals passed), so each sees its own.
  await runReminders(env, { now: BOUGHT + 3 * 366 * DAY });
});

describe('the scheduled reminders', () => {
  it('are listed soonest first across the shards, with their kind, dates, plan, country, brand and language', async () => {
    const bought: Bought[] = [
      { country: 'US' },
      { country: 'DE', planId: 'monthly_7d_intro_eur', language: 'de' },
      { country: 'US', planId: 'quarterly_usd' },
      { country: null, at: BOUGHT - 2 * DAY },
      { country: 'US', at: BOUGHT - DAY },
      { country: 'DE', planId: 'monthly_7d_intro_eur', language: 'de', at: BOUGHT + DAY },
    ];
    const ids = await buy(bought);
    expect(new Set(ids.map(ledgerShardOf)).size).toBeGreaterThan(1);

    const { status, answer } = await read();

    expect(status).toBe(200);
    expect(answer.reminders).toEqual(expectedRows(ids, bought));
    expect(answer.reminders.map((row) => row.kind)).toEqual(
      expect.arrayContaining(['trial_end', 'annual', 'renewal']),
    );
    expect(answer.at).toBe(new Date(NOW).toISOString());
    expect(answer.unavailable).toEqual([]);
  });

  it('are counted by kind and by country, the unknown country last', async () => {
    await buy([
      { country: 'US' },
      { country: 'US' },
      { country: 'US' },
      { country: 'DE', planId: 'monthly_7d_intro_eur' },
      { country: 'DE', planId: 'monthly_7d_intro_eur' },
      { country: 'US', planId: 'quarterly_usd' },
      { country: null },
    ]);

    const { answer } = await read();

    // A US trial: its trial's and the yearly notice; a quarterly plan in the US: the yearly
    // notice and the one before its renewal; elsewhere a trial's only.
    expect(answer.byKind).toEqual({ trial_end: 6, annual: 4, renewal: 1 });
    expect(answer.byCountry).toEqual([
      { country: 'US', count: 8 },
      { country: 'DE', count: 2 },
      { country: null, count: 1 },
    ]);
    expect(answer.total).toBe(11);
  });

  it(`are at most ${SCHEDULED_REMINDERS_SHOWN}, the soonest of all, while the totals count every one`, async () => {
    const bought: Bought[] = Array.from({ length: 110 }, () => ({ country: 'US' }));
    const ids = await buy(bought);
    expect(new Set(ids.map(ledgerShardOf)).size).toBeGreaterThan(8);

    const { answer } = await read();

    expect(answer.total).toBe(220);
    expect(answer.byKind).toEqual({ trial_end: 110, annual: 110, renewal: 0 });
    expect(answer.reminders).toEqual(expectedRows(ids, bought).slice(0, SCHEDULED_REMINDERS_SHOWN));
  });

  it('leave the list and the totals when taken out, and show as leased while a run asks for them', async () => {
    const [cancelled, asked] = await buy([{ country: 'US' }, { country: 'US' }]);
    await ledgerStub(env.SUBSCRIPTION_LEDGER, cancelled!).forgetReminders(cancelled!);
    // A cron run 4 days in takes the trial's reminder, due half-way through the 7-day trial.
    const runAt = BOUGHT + 4 * DAY;
    await ledgerStub(env.SUBSCRIPTION_LEDGER, asked!).takeDueReminders(runAt, 10);

    const { answer } = await read(freshApp({ now: () => runAt + MINUTE }));

    expect(answer.total).toBe(2);
    expect(answer.byKind).toEqual({ trial_end: 1, annual: 1, renewal: 0 });
    expect(answer.reminders.map((row) => [row.subscriptionId, row.kind, row.leased])).toEqual([
      [asked, 'trial_end', true],
      [asked, 'annual', false],
    ]);
  });

  it('name a shard that hangs once its time is up, and list the others', async () => {
    const ids = await buy(Array.from({ length: 20 }, () => ({ country: 'US' })));
    const down = ledgerShardOf(ids[0]!);
    const ledger = env.SUBSCRIPTION_LEDGER;
    const stuck = ledger.idFromName(`ledger:${down}`);
    const hanging = {
      idFromName: (name: string) => ledger.idFromName(name),
      get: (id: DurableObjectId) =>
        id.equals(stuck) ? { scheduledReminders: () => new Promise(() => {}) } : ledger.get(id),
    } as unknown as typeof ledger;

    const answer = await readScheduledReminders(hanging, NOW, SCHEDULED_REMINDERS_SHOWN, 200);

    expect(answer.unavailable).toEqual([down]);
    const kept = ids.filter((id) => ledgerShardOf(id) !== down);
    expect(new Set(answer.reminders.map((row) => row.subscriptionId))).toEqual(new Set(kept));
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'scheduled_reminders_failed', shard: down }),
    );
  });

  it('name a shard that fails, and still list and count the others', async () => {
    const ids = await buy(Array.from({ length: 40 }, () => ({ country: 'US' })));
    const down = ledgerShardOf(ids[0]!);
    const ledger = env.SUBSCRIPTION_LEDGER;
    const broken = ledger.idFromName(`ledger:${down}`);
    const failing = {
      idFromName: (name: string) => ledger.idFromName(name),
      get: (id: DurableObjectId) =>
        id.equals(broken)
          ? {
              scheduledReminders: async () => {
                throw new Error('shard unreachable');
              },
            }
          : ledger.get(id),
    } as unknown as typeof ledger;

    const { status, answer } = await read(
      freshApp({ now: () => NOW }, { SUBSCRIPTION_LEDGER: failing }),
    );

    const kept = ids.filter((id) => ledgerShardOf(id) !== down);
    expect(status).toBe(200);
    expect(answer.unavailable).toEqual([down]);
    expect(answer.total).toBe(kept.length * 2);
    expect(new Set(answer.reminders.map((row) => row.subscriptionId))).toEqual(new Set(kept));
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'scheduled_reminders_failed', shard: down }),
    );
  });

  it('are refused to a request Cloudflare Access did not vouch for, and no shard is read', async () => {
    await buy([{ country: 'US' }]);
    let shardsRead = 0;
    const ledger = env.SUBSCRIPTION_LEDGER;
    const counting = {
      idFromName: (name: string) => ledger.idFromName(name),
      get: (id: DurableObjectId) => {
        shardsRead += 1;
        return ledger.get(id);
      },
    } as unknown as typeof ledger;
    const fetchApp = productionApp(
      { now: () => NOW },
      { ...PRODUCTION, SUBSCRIPTION_LEDGER: counting },
    );

    const response = await fetchApp(CONSOLE_REMINDERS_PATH);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ ok: false, error: 'access_token_missing' });
    expect(shardsRead).toBe(0);
  });
});
