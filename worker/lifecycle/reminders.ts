import {
  REMINDER_SIGNATURE_HEADER,
  type ReminderRequest,
  reminderPath,
} from '../../shared/api/reminders';
import { subscriberCallText } from '../../shared/api/subscriber-calls';
import { describeError, logError, logLine, logWarning } from '../../shared/log';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { toMajorUnits } from '../../shared/plans/money';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { lifecycleKey } from '../portal-client/lifecycle-key';
import {
  EMBEDDED_PORTAL_ORIGIN,
  exchangeWithPortal,
  type PortalFetch,
} from '../portal-client/portal-call';
import { subscriberLinkKey } from '../subscriber-links/link-key';
import { signSubscriberLink, subscriberLinkUrl } from '../subscriber-links/link-token';
import { LEDGER_SHARD_COUNT, ledgerShardStub } from './ledger-shard';
import type { DueReminder } from './reminder-rows';
import { signatureHeaderFor } from './signature';

/**
 * The cron's renewal reminders (docs/product-api.md, "Renewal reminders"): every run takes, from
 * each ledger shard, the reminders due (reminder-rows.ts) and asks the product API for each,
 * `POST /subscriptions/{id}/reminders`, signed with LIFECYCLE_HMAC_KEY and keyed by the
 * reminder's id. Asked once:
 * - a second run at the same time finds the due ones taken (a 5-minute lease) and leaves them;
 * - a run that dies between asking and recording leaves its rows taken until the lease ends; the
 *   next run asks again under the same Idempotency-Key, which the product API answers as a
 *   duplicate without sending a second email (the embedded portal does, by its primary key);
 * - a reminder whose renewal passed unasked is taken out and logged `reminder_missed`, one asked
 *   more than a day after it was due `reminder_late`.
 * Nothing outside the worker can start it: it runs from the scheduled handler only
 * (worker/scheduled.ts), which no request reaches.
 */

/** Reminders asked per shard and run: at 15-minute runs, 16 shards × 50 × 96 = 76,800 a day. */
const REMINDERS_PER_SHARD_RUN = 50;

/** A reminder asked this long after it was due is reported late. */
const REMINDER_LATE_MS = 24 * 60 * 60 * 1000;

/** The product API's wait for one ask. */
const REMINDER_TIMEOUT_MS = 10_000;

export interface ReminderRunOptions {
  /** The run's clock, epoch ms: the cron's scheduled time. */
  now: number;
  /** The embedded portal of a development worker (worker/dev.ts), or a test's product API. */
  portalFetch?: PortalFetch;
}

/** What one run did, for its log line and the tests. */
export interface ReminderRun {
  asked: number;
  duplicates: number;
  failed: number;
  gone: number;
  missed: number;
  late: number;
}

type Sender = { baseUrl: string; send: (request: Request) => Promise<Response> };

/** Where asks go: PORTAL_URL, else a development worker's embedded portal; else nowhere. */
function senderOf(env: Bindings, portalFetch: PortalFetch | undefined): Sender | null {
  if (env.PORTAL_URL) {
    return {
      baseUrl: env.PORTAL_URL.replace(/\/+$/, ''),
      send: portalFetch
        ? (request) => portalFetch(request, env, undefined)
        : (request) => fetch(request),
    };
  }
  if (!isDevelopment(env) || !portalFetch) return null;
  return {
    baseUrl: EMBEDDED_PORTAL_ORIGIN,
    send: (request) => portalFetch(request, env, undefined),
  };
}

/** The ask's body: the plan's recurring price, the date, a fresh manage link, the brand. */
async function requestBody(
  env: Bindings,
  reminder: DueReminder,
  now: number,
): Promise<ReminderRequest | null> {
  if (!isPlanId(reminder.planId)) return null;
  const plan = planById(reminder.planId);
  const key = subscriberLinkKey(env);
  const origin = reminder.origin ?? (env.CONSOLE_URL ? new URL(env.CONSOLE_URL).origin : null);
  // The page wears the purchase's brand and language where both were kept.
  const look =
    reminder.theme !== null && reminder.language !== null
      ? { theme: reminder.theme, language: reminder.language }
      : null;
  const manageUrl =
    key.ok && origin !== null
      ? subscriberLinkUrl(
          origin,
          (await signSubscriberLink(key.key, 'manage', reminder.subscriptionId, now, look)).token,
        )
      : null;
  return {
    reminder_id: reminder.reminderId,
    kind: reminder.kind,
    subscription_id: reminder.subscriptionId,
    price: toMajorUnits(plan.price, plan.currency),
    currency: plan.currency,
    renews_at: new Date(reminder.renewsAt).toISOString(),
    manage_url: manageUrl,
    language: reminder.language,
    brand: reminder.theme,
    country: reminder.country,
  };
}

type AskOutcome = 'asked' | 'duplicate' | 'gone' | 'failed';

/** Asks for one reminder; what came of it. */
async function ask(
  env: Bindings,
  sender: Sender,
  secret: string,
  reminder: DueReminder,
  now: number,
): Promise<AskOutcome> {
  const body = await requestBody(env, reminder, now);
  if (body === null) return 'gone';
  const text = JSON.stringify(body);
  const path = reminderPath(reminder.subscriptionId);
  // Signed as every call the worker makes for a subscriber: the method and path with the body.
  const signed = subscriberCallText('POST', path, text);
  const request = new Request(`${sender.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': reminder.reminderId,
      // Dated by the wall clock at sending: `now` is the run's schedule, the signature's
      // freshness the moment the product API receives it.
      [REMINDER_SIGNATURE_HEADER]: await signatureHeaderFor(
        secret,
        Math.floor(Date.now() / 1000),
        signed,
      ),
    },
    body: text,
    redirect: 'manual',
  });
  const outcome = await exchangeWithPortal(sender.send, request, REMINDER_TIMEOUT_MS);
  if (outcome.kind !== 'answered') {
    logError('reminder_ask_failed', { reminder_id: reminder.reminderId, detail: outcome.kind });
    return 'failed';
  }
  if (outcome.status === 404 || outcome.status === 410) return 'gone';
  if (outcome.status === 409) return 'duplicate';
  if (outcome.status >= 200 && outcome.status < 300) {
    return outcome.text.includes('"duplicate"') ? 'duplicate' : 'asked';
  }
  logError('reminder_ask_failed', {
    reminder_id: reminder.reminderId,
    detail: `status ${outcome.status}`,
  });
  return 'failed';
}

/** One shard's due reminders asked, its missed ones reported. */
async function runShard(
  env: Bindings,
  index: number,
  asking: { sender: Sender; secret: string } | null,
  now: number,
  run: ReminderRun,
): Promise<void> {
  const ledger = ledgerShardStub(env.SUBSCRIPTION_LEDGER, index);
  const { due, missed } = await ledger.takeDueReminders(now, asking ? REMINDERS_PER_SHARD_RUN : 0);
  for (const reminder of missed) {
    run.missed++;
    logError('reminder_missed', {
      reminder_id: reminder.reminderId,
      kind: reminder.kind,
      due_at: new Date(reminder.askAt).toISOString(),
    });
  }
  if (asking === null) return;
  for (const reminder of due) {
    const outcome = await ask(env, asking.sender, asking.secret, reminder, now).catch(
      (error: unknown): AskOutcome => {
        logError('reminder_ask_failed', {
          reminder_id: reminder.reminderId,
          detail: describeError(error),
        });
        return 'failed';
      },
    );
    if (outcome === 'failed') {
      run.failed++;
      await ledger.releaseReminder(reminder);
      continue;
    }
    if (outcome === 'gone') {
      run.gone++;
      logWarning('reminder_subscription_gone', { reminder_id: reminder.reminderId });
      await ledger.forgetReminders(reminder.subscriptionId);
      continue;
    }
    run[outcome === 'asked' ? 'asked' : 'duplicates']++;
    if (now - reminder.askAt > REMINDER_LATE_MS) {
      run.late++;
      logWarning('reminder_late', {
        reminder_id: reminder.reminderId,
        due_at: new Date(reminder.askAt).toISOString(),
      });
    }
    await ledger.reminderAsked(reminder);
  }
}

/**
 * One run over every shard at `now`. Without a product API to ask (no PORTAL_URL outside
 * development) or without LIFECYCLE_HMAC_KEY to sign with, nothing is asked
 * (`reminders_not_configured`), and what passes its renewal meanwhile is reported missed.
 */
export async function runReminders(
  env: Bindings,
  options: ReminderRunOptions,
): Promise<ReminderRun> {
  const run: ReminderRun = { asked: 0, duplicates: 0, failed: 0, gone: 0, missed: 0, late: 0 };
  const sender = senderOf(env, options.portalFetch);
  const key = lifecycleKey(env);
  const asking = sender && key.ok ? { sender, secret: key.key } : null;
  if (asking === null) {
    logError('reminders_not_configured', {
      detail: key.ok ? 'no PORTAL_URL to ask' : key.reason,
    });
  }
  const shards = Array.from({ length: LEDGER_SHARD_COUNT }, (_, index) => index);
  const results = await Promise.allSettled(
    shards.map((index) => runShard(env, index, asking, options.now, run)),
  );
  for (const result of results) {
    if (result.status === 'rejected') {
      logError('reminders_run_failed', { detail: describeError(result.reason) });
    }
  }
  if (run.asked + run.duplicates + run.failed + run.gone + run.missed > 0) {
    logLine({ event: 'reminders', ...run });
  }
  return run;
}
