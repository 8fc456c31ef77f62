import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { listReminders } from '../../../portal/store/listings';
import { LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';
import type { ReminderRequest } from '../../../shared/api/reminders';
import { subscriberCallText } from '../../../shared/api/subscriber-calls';
import {
  rememberBuyers,
  subscriptionLedgerDestination,
} from '../../../worker/collector/consumer/ledger-destination';
import developmentWorker from '../../../worker/dev';
import { developmentPortal } from '../../../worker/dev/embedded-portal';
import type { Buyer } from '../../../worker/lifecycle/ledger';
import { ledgerStub } from '../../../worker/lifecycle/ledger-shard';
import { REMINDER_LEASE_MS } from '../../../worker/lifecycle/reminder-rows';
import { runReminders } from '../../../worker/lifecycle/reminders';
import {
  matchingSignature,
  readSignatureHeader,
  signatureHeaderFor,
} from '../../../worker/lifecycle/signature';
import { DEVELOPMENT_LIFECYCLE_KEY } from '../../../worker/portal-client/lifecycle-key';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { ALERTS_CRON } from '../../../worker/scheduled';
import { DEVELOPMENT_SUBSCRIBER_LINK_KEY } from '../../../worker/subscriber-links/link-key';
import { verifySubscriberLink } from '../../../worker/subscriber-links/link-token';
import { aPurchase, aServerMessage } from '../collector/fixtures';
import { productionApp } from '../fetch-app';
import { anEvent, capturedLogs, lifecycleApp } from './lifecycle-fixtures';

/**
 * The renewal reminders (docs/product-api.md, "Renewal reminders"): scheduled in the real ledger
 * shards when a purchase reaches them, asked of the embedded portal by the cron's run, once,
 * across runs, a run at the same time, and a run that died between asking and recording.
 */

const logs = capturedLogs();

const DAY = 86_400_000;
/** Bought 1 March 2026, 10:00 UTC: a 7-day trial turns paid on 8 March. */
const BOUGHT = Date.UTC(2026, 2, 1, 10, 0, 0);
const TRIAL_ASK = BOUGHT + 3.5 * DAY;
const TRIAL_ENDS = BOUGHT + 7 * DAY;
const ORIGIN = 'https://funnel.example.com';

/** A US buyer of the 7-day trial, known to the ledger and to the embedded portal. */
async function aTrialBuyer(overrides: Partial<NonNullable<Buyer['reminders']>> = {}) {
  const subscriptionId = `sub_${crypto.randomUUID()}`;
  const userId = `u_${crypto.randomUUID()}`;
  await env.PORTAL_DB.batch([
    env.PORTAL_DB.prepare(
      `INSERT INTO users (id, email, email_key, name, user_uuid, landing_type,
         registration_source, created_at) VALUES (?1, ?2, ?2, 'A', ?1, 'one_pager', 'email', '')`,
    ).bind(userId, `${userId}@example.com`),
    env.PORTAL_DB.prepare(
      `INSERT INTO subscriptions (id, user_id, plan_id, gateway, status, created_at)
       VALUES (?, ?, 'monthly_7d_intro_usd', 'test', 'active', '')`,
    ).bind(subscriptionId, userId),
  ]);
  const buyer: Buyer = {
    subscriptionId,
    visitorId: crypto.randomUUID(),
    paidMinor: 699,
    currency: 'USD',
    reminders: {
      planId: 'monthly_7d_intro_usd',
      chargedAt: BOUGHT,
      country: 'US',
      language: 'de',
      theme: 'brainbloom',
      origin: ORIGIN,
      ...overrides,
    },
  };
  await rememberBuyers(env, [buyer], { now: () => BOUGHT, apply: async () => {} });
  return subscriptionId;
}

/** The embedded portal, with every ask it received recorded (body and headers). */
function recordingPortal(options: { dieAfterAsking?: boolean } = {}) {
  const asks: { body: ReminderRequest; key: string | null; signed: boolean }[] = [];
  const portalFetch: PortalFetch = async (request, bindings, ctx) => {
    if (new URL(request.url).pathname.endsWith('/reminders')) {
      const text = await request.clone().text();
      const header = readSignatureHeader(request.headers.get(LIFECYCLE_SIGNATURE_HEADER) ?? '');
      asks.push({
        body: JSON.parse(text) as ReminderRequest,
        key: request.headers.get('idempotency-key'),
        // Signed as the product API verifies it: the lifecycle key over the method, the path
        // and the exact body, as the worker's other calls for a subscriber.
        signed:
          header.ok &&
          (await matchingSignature(
            DEVELOPMENT_LIFECYCLE_KEY,
            header.header,
            subscriberCallText('POST', new URL(request.url).pathname, text),
          )) !== null,
      });
    }
    const answer = await developmentPortal(request, bindings, ctx);
    if (options.dieAfterAsking) throw new Error('the run died after the product API took it');
    return answer;
  };
  return { asks, portalFetch };
}

/** What the embedded portal kept of a subscription's reminders. */
async function kept(subscriptionId: string) {
  const { results } = await env.PORTAL_DB.prepare(
    'SELECT reminder_id, kind FROM reminder_requests WHERE subscription_id = ? ORDER BY renews_at',
  )
    .bind(subscriptionId)
    .all<{ reminder_id: string; kind: string }>();
  return results;
}

const asksOf = <T extends { body: ReminderRequest }>(asks: T[], subscriptionId: string) =>
  asks.filter((ask) => ask.body.subscription_id === subscriptionId);

beforeEach(async () => {
  // Every earlier test's reminders asked or missed, so each test sees only its own.
  await runReminders(env, {
    now: BOUGHT + 3 * 366 * DAY,
    portalFetch: recordingPortal().portalFetch,
  });
});

describe('a trial’s reminder', () => {
  it('is asked once, half-way through a 7-day trial, with the price, the date and a manage link in the purchase’s brand and language', async () => {
    const subscriptionId = await aTrialBuyer();
    const { asks, portalFetch } = recordingPortal();

    await runReminders(env, { now: TRIAL_ASK - 60_000, portalFetch });
    expect(asksOf(asks, subscriptionId)).toEqual([]);
    await runReminders(env, { now: TRIAL_ASK, portalFetch });
    await runReminders(env, { now: TRIAL_ASK + 15 * 60_000, portalFetch });

    const [ask, ...more] = asksOf(asks, subscriptionId);
    expect(more).toEqual([]);
    expect(ask).toMatchObject({
      key: `${subscriptionId}:trial_end:${TRIAL_ENDS}`,
      signed: true,
      body: {
        reminder_id: `${subscriptionId}:trial_end:${TRIAL_ENDS}`,
        kind: 'trial_end',
        subscription_id: subscriptionId,
        price: 39.99,
        currency: 'USD',
        renews_at: new Date(TRIAL_ENDS).toISOString(),
        language: 'de',
        brand: 'brainbloom',
        country: 'US',
      },
    });
    const url = ask!.body.manage_url!;
    expect(url.startsWith(`${ORIGIN}/subscription/manage.`)).toBe(true);
    // Signed in the link: its page wears Brainbloom in German whatever browser opens it.
    expect(url).toMatch(/\.brainbloom~de\.[A-Za-z0-9_-]{43}$/);
    const link = await verifySubscriberLink(
      DEVELOPMENT_SUBSCRIBER_LINK_KEY,
      url.slice(`${ORIGIN}/subscription/`.length),
      TRIAL_ASK,
    );
    expect(link).toMatchObject({
      ok: true,
      link: { purpose: 'manage', subscriptionId, look: { theme: 'brainbloom', language: 'de' } },
    });
    expect(await kept(subscriptionId)).toEqual([
      { reminder_id: `${subscriptionId}:trial_end:${TRIAL_ENDS}`, kind: 'trial_end' },
    ]);
    // What `npm run portal -- reminders` lists.
    const listed = (await listReminders(env.PORTAL_DB)).filter(
      (reminder) => reminder.subscription_id === subscriptionId,
    );
    expect(listed).toEqual([
      expect.objectContaining({
        kind: 'trial_end',
        price: 39.99,
        currency: 'USD',
        language: 'de',
        brand: 'brainbloom',
      }),
    ]);
  });

  it('is asked once by two runs at the same moment', async () => {
    const subscriptionId = await aTrialBuyer();
    const { asks, portalFetch } = recordingPortal();

    await Promise.all([
      runReminders(env, { now: TRIAL_ASK, portalFetch }),
      runReminders(env, { now: TRIAL_ASK, portalFetch }),
    ]);

    expect(asksOf(asks, subscriptionId)).toHaveLength(1);
  });

  it('after a run died between asking and recording, is asked again under the same key once the lease ends, and sent once', async () => {
    const subscriptionId = await aTrialBuyer();
    // The dying run: it took the reminder and asked, and recorded nothing.
    const ledger = ledgerStub(env.SUBSCRIPTION_LEDGER, subscriptionId);
    const { due } = await ledger.takeDueReminders(TRIAL_ASK, 50);
    const taken = due.find((reminder) => reminder.subscriptionId === subscriptionId)!;
    const dying = recordingPortal({ dieAfterAsking: true });
    const path = `/subscriptions/${subscriptionId}/reminders`;
    const sent = JSON.stringify({
      reminder_id: taken.reminderId,
      kind: 'trial_end',
      subscription_id: subscriptionId,
      price: 39.99,
      currency: 'USD',
      renews_at: new Date(TRIAL_ENDS).toISOString(),
      manage_url: null,
      language: 'de',
      country: 'US',
    });
    // Signed as the worker signs it (the embedded portal refuses anything else).
    const signature = await signatureHeaderFor(
      DEVELOPMENT_LIFECYCLE_KEY,
      Math.floor(Date.now() / 1000),
      subscriberCallText('POST', path, sent),
    );
    await dying
      .portalFetch(
        new Request(`https://portal.internal${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'idempotency-key': taken.reminderId,
            [LIFECYCLE_SIGNATURE_HEADER]: signature,
          },
          body: sent,
        }),
        env,
        undefined,
      )
      .catch(() => {});
    const { asks, portalFetch } = recordingPortal();

    // Within the lease the next run leaves it; after, it asks again with the same id.
    await runReminders(env, { now: TRIAL_ASK + REMINDER_LEASE_MS - 1, portalFetch });
    expect(asksOf(asks, subscriptionId)).toEqual([]);
    const run = await runReminders(env, { now: TRIAL_ASK + REMINDER_LEASE_MS, portalFetch });
    await runReminders(env, { now: TRIAL_ASK + REMINDER_LEASE_MS + 15 * 60_000, portalFetch });

    expect(asksOf(asks, subscriptionId).map((ask) => ask.key)).toEqual([taken.reminderId]);
    expect(run.duplicates).toBeGreaterThanOrEqual(1);
    // The product API kept it once: one email.
    expect(await kept(subscriptionId)).toHaveLength(1);
  });

  it('that failed is asked again by the next run', async () => {
    const subscriptionId = await aTrialBuyer();
    const failing: PortalFetch = async () => new Response('{"errors":["down"]}', { status: 503 });
    const { asks, portalFetch } = recordingPortal();

    const failed = await runReminders(env, { now: TRIAL_ASK, portalFetch: failing });
    await runReminders(env, { now: TRIAL_ASK + 15 * 60_000, portalFetch });

    expect(failed.failed).toBeGreaterThanOrEqual(1);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'reminder_ask_failed', detail: 'status 503' }),
    );
    expect(asksOf(asks, subscriptionId)).toHaveLength(1);
  });

  it('never asked before its trial ended is reported missed, once, and not asked', async () => {
    const subscriptionId = await aTrialBuyer();
    const { asks, portalFetch } = recordingPortal();

    await runReminders(env, { now: TRIAL_ENDS + 60_000, portalFetch });
    await runReminders(env, { now: TRIAL_ENDS + 16 * 60_000, portalFetch });

    const missed = logs
      .errors()
      .filter(
        (line) =>
          line.error === 'reminder_missed' &&
          line.reminder_id === `${subscriptionId}:trial_end:${TRIAL_ENDS}`,
      );
    expect(missed).toHaveLength(1);
    expect(asksOf(asks, subscriptionId).map((ask) => ask.body.kind)).not.toContain('trial_end');
  });

  it('missed, raises the day’s alert to the experiments’ webhook through the cron, once a day', async () => {
    const subscriptionId = await aTrialBuyer();
    const webhook = 'https://hooks.example.com/services/T000/B000/XXXX';
    await env.FUNNEL_CONFIG.put(
      'experiments',
      JSON.stringify({ version: 'v-rem', experiments: {}, alerts: { webhook } }),
    );
    await env.CONFIG_DB.prepare('DELETE FROM alert_deliveries').run();
    // The webhook is on the internet: answered here.
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('ok'));
    const bindings = { ...env, ALERTS_HMAC_KEY: 'alerts-test-secret' };
    const cron = async (at: number) => {
      const ctx = createExecutionContext();
      await developmentWorker.scheduled(
        createScheduledController({ scheduledTime: at, cron: ALERTS_CRON }),
        bindings,
        ctx,
      );
      await waitOnExecutionContext(ctx);
    };

    await cron(TRIAL_ENDS + 60_000);
    await aTrialBuyer();
    await cron(TRIAL_ENDS + 16 * 60_000);

    const { results } = await env.CONFIG_DB.prepare(
      "SELECT key, body FROM alert_deliveries WHERE kind = 'reminders_missed'",
    ).all<{ key: string; body: string }>();
    expect(results.map((row) => row.key)).toEqual([
      'renewal-reminders|0|reminders_missed|2026-03-08',
    ]);
    expect(JSON.parse(results[0]!.body).text).toContain(
      '*Renewal reminders missed*: 1 renewal reminder(s) due were not asked',
    );
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'reminder_missed',
        reminder_id: `${subscriptionId}:trial_end:${TRIAL_ENDS}`,
      }),
    );
    await env.FUNNEL_CONFIG.delete('experiments');
  });

  it('is not asked after the subscription was cancelled', async () => {
    const subscriptionId = await aTrialBuyer();
    const { send } = lifecycleApp({ now: () => BOUGHT + DAY });
    const cancelled = await send(
      anEvent(subscriptionId, { type: 'cancellation', amount: 0, currency: null }),
      { t: Math.floor((BOUGHT + DAY) / 1000) },
    );
    const { asks, portalFetch } = recordingPortal();

    await runReminders(env, { now: TRIAL_ASK, portalFetch });

    expect(cancelled.status).toBe(200);
    expect(asksOf(asks, subscriptionId)).toEqual([]);
  });
});

describe('a verified purchase', () => {
  it('schedules its reminders from its plan, time, country, language, brand and page, once however often it is delivered', async () => {
    const subscriptionId = `sub_${crypto.randomUUID()}`;
    const message = aServerMessage(
      aPurchase({ sub_id: subscriptionId, language: 'fr', theme: 'findo' }, { time: BOUGHT }),
      { country: 'US', page_url: `${ORIGIN}/checkout_v3_tr?gclid=g-1` },
    );
    const destination = subscriptionLedgerDestination(env, { now: () => BOUGHT });
    await destination.deliver([message]);
    await destination.deliver([message]);

    const ledger = ledgerStub(env.SUBSCRIPTION_LEDGER, subscriptionId);
    const mine = async (at: number) =>
      (await ledger.takeDueReminders(at, 50)).due.filter(
        (reminder) => reminder.subscriptionId === subscriptionId,
      );
    expect(await mine(TRIAL_ASK)).toEqual([
      expect.objectContaining({
        kind: 'trial_end',
        renewsAt: TRIAL_ENDS,
        askAt: TRIAL_ASK,
        planId: 'monthly_7d_intro_usd',
        country: 'US',
        language: 'fr',
        theme: 'findo',
        origin: ORIGIN,
      }),
    ]);
    const firstYear = Date.UTC(2027, 2, 1, 10, 0, 0);
    expect(await mine(firstYear)).toEqual([
      expect.objectContaining({ kind: 'annual', askAt: firstYear, language: 'fr' }),
    ]);
  });
});

describe('the yearly reminder of a US subscription', () => {
  it('comes on each anniversary, each year under its own id, and one asked late is reported', async () => {
    const subscriptionId = await aTrialBuyer();
    const { asks, portalFetch } = recordingPortal();
    const firstYear = Date.UTC(2027, 2, 1, 10, 0, 0);

    await runReminders(env, { now: TRIAL_ASK, portalFetch });
    await runReminders(env, { now: firstYear, portalFetch });
    // The next one is two days late (the cron stopped), still before its renewal.
    await runReminders(env, { now: Date.UTC(2028, 2, 3, 10, 0, 0), portalFetch });

    const yearly = asksOf(asks, subscriptionId).filter((ask) => ask.body.kind === 'annual');
    expect(yearly.map((ask) => ask.body.renews_at)).toEqual([
      // The renewals after each anniversary: 8 March, a month cycle from the trial's end.
      new Date(Date.UTC(2027, 2, 8, 10, 0, 0)).toISOString(),
      new Date(Date.UTC(2028, 2, 8, 10, 0, 0)).toISOString(),
    ]);
    expect(new Set(yearly.map((ask) => ask.key)).size).toBe(2);
    expect(logs.warnings()).toContainEqual(
      expect.objectContaining({
        warning: 'reminder_late',
        reminder_id: `${subscriptionId}:annual:${Date.UTC(2028, 2, 8, 10, 0, 0)}`,
      }),
    );
  });

  it('is not asked of a subscription outside the US', async () => {
    const subscriptionId = await aTrialBuyer({ country: 'DE' });
    const { asks, portalFetch } = recordingPortal();
    await runReminders(env, { now: Date.UTC(2027, 2, 2, 10, 0, 0), portalFetch });
    expect(asksOf(asks, subscriptionId).map((ask) => ask.body.kind)).toEqual([]);
  });
});

describe('the reminder before each renewal of a US quarterly subscription', () => {
  it('is asked 30 days before each renewal, each under its own id, and kept by the product API', async () => {
    const subscriptionId = await aTrialBuyer({ planId: 'quarterly_usd' });
    const { asks, portalFetch } = recordingPortal();
    // Bought 1 March: renewals on 1 June and 1 September.
    const june = Date.UTC(2026, 5, 1, 10, 0, 0);
    const september = Date.UTC(2026, 8, 1, 10, 0, 0);

    await runReminders(env, { now: june - 30 * DAY - 60_000, portalFetch });
    expect(asksOf(asks, subscriptionId)).toEqual([]);
    await runReminders(env, { now: june - 30 * DAY, portalFetch });
    await runReminders(env, { now: september - 30 * DAY, portalFetch });

    const renewals = asksOf(asks, subscriptionId).filter((ask) => ask.body.kind === 'renewal');
    expect(renewals.map((ask) => ask.body.renews_at)).toEqual([
      new Date(june).toISOString(),
      new Date(september).toISOString(),
    ]);
    expect(new Set(renewals.map((ask) => ask.key)).size).toBe(2);
    expect((await kept(subscriptionId)).map((row) => row.kind)).toEqual(['renewal', 'renewal']);
  });

  it('is not asked of a quarterly subscription outside the US', async () => {
    const subscriptionId = await aTrialBuyer({ planId: 'quarterly_usd', country: 'DE' });
    const { asks, portalFetch } = recordingPortal();
    await runReminders(env, { now: Date.UTC(2026, 8, 1, 9, 0, 0), portalFetch });
    expect(asksOf(asks, subscriptionId)).toEqual([]);
  });
});

describe('who can make reminders be asked', () => {
  it('nobody from outside: no route of the deployed worker runs the cron', async () => {
    const fetchApp = productionApp({}, { ENVIRONMENT: 'production' });
    for (const path of ['/__scheduled?cron=*/15+*+*+*+*', '/cdn-cgi/handler/scheduled']) {
      const response = await fetchApp(path, { method: 'POST' });
      expect(response.status).toBe(404);
    }
  });

  it('a product API that no longer knows the subscription stops its reminders', async () => {
    const subscriptionId = await aTrialBuyer();
    await env.PORTAL_DB.prepare('DELETE FROM subscriptions WHERE id = ?')
      .bind(subscriptionId)
      .run();
    const { asks, portalFetch } = recordingPortal();

    await runReminders(env, { now: TRIAL_ASK, portalFetch });
    await runReminders(env, { now: Date.UTC(2027, 2, 1, 10, 0, 0), portalFetch });

    expect(asksOf(asks, subscriptionId)).toHaveLength(1);
    expect(logs.warnings()).toContainEqual(
      expect.objectContaining({ warning: 'reminder_subscription_gone' }),
    );
  });

  it('a deployed worker without a product API asks nothing, says so, and keeps the reminders', async () => {
    const subscriptionId = await aTrialBuyer();
    const { asks, portalFetch } = recordingPortal();
    const deployed = { ...env, ENVIRONMENT: 'production', PORTAL_URL: undefined };

    await runReminders(deployed, { now: TRIAL_ASK, portalFetch });
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'reminders_not_configured' }),
    );
    await runReminders(env, { now: TRIAL_ASK + 60_000, portalFetch });

    expect(asksOf(asks, subscriptionId)).toHaveLength(1);
  });
});
