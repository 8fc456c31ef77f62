import { resolve } from 'node:path';
import { switchFaultOn } from '../portal/faults';
import { newLifecycleEvent } from '../portal/lifecycle-record';
import {
  isMigrated,
  listDeclarations,
  listLookups,
  listReminders,
  listSaveOffers,
  listSubscriptions,
  listUsers,
} from '../portal/store/listings';
import { listPayments } from '../portal/store/subscription-payments';
import { findSubscription } from '../portal/store/subscriptions';
import { prefixedId } from '../portal/tokens';
import { EXIT_OK, fail, runTool, type StoreOptions } from './cli';
import { DEFAULT_PERSIST_TO, openLocalPlatform } from './local-platform';
import { PORTAL_CLI_USAGE, type PortalCommand, parsePortalArgs } from './portal/arguments';
import { describeFault } from './portal/fail-arguments';
import { postLifecycleEvent } from './portal/lifecycle-post';
import {
  DECLARATION_COLUMNS,
  LOOKUP_COLUMNS,
  PAYMENT_COLUMNS,
  REMINDER_COLUMNS,
  SAVE_OFFER_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  USER_COLUMNS,
} from './portal/listings';
import type { ScheduledRemindersCommand } from './portal/scheduled-arguments';
import { readScheduledReminders, scheduledRemindersText } from './portal/scheduled-reminders';
import { type Column, formatTable } from './portal/table';

/**
 * `npm run portal -- users | subscriptions | payments | lookups | save-offers | fail <call> [count] [--delay ms] [--after]`:
 * what the embedded portal emulator stored while a developer used the funnel under `npm start`,
 * and its failure switch; `reminders --scheduled`: the reminders the running worker will ask
 * for (scripts/portal/scheduled-reminders.ts); `renew | refund | chargeback | cancel
 * <subscription>`: the product API's lifecycle events for a subscription it charged, signed
 * with the development key and sent to the running worker (worker/lifecycle/). Reads the same
 * local D1 files as `wrangler dev`, through wrangler's platform proxy, which also gives
 * [env.development.vars]. Arguments, tables and event bodies are pure and unit-tested
 * (scripts/portal/, portal/lifecycle-event.ts); this file only does the I/O.
 */

interface LocalPortal {
  PORTAL_DB: D1Database;
  /** wrangler.toml [env.development.vars]: the key the development worker verifies with. */
  LIFECYCLE_HMAC_KEY?: string;
}

async function withPortal<T>(persistTo: string, use: (env: LocalPortal) => Promise<T>): Promise<T> {
  const platform = await openLocalPlatform<LocalPortal>(persistTo);
  try {
    return await use(platform.env);
  } finally {
    await platform.dispose();
  }
}

function printTable<R>(what: string, columns: readonly Column<R>[], rows: readonly R[]): void {
  console.log(rows.length === 0 ? `No ${what} stored yet.` : formatTable(columns, rows));
}

type LifecycleCommand = Extract<PortalCommand, { name: 'lifecycle' }>;

/**
 * The reminders scheduled in the running worker's ledger, with their totals; exit 1 when the
 * worker cannot be read, or some of its ledger shards did not answer (the rest printed first).
 */
async function printScheduledReminders(command: ScheduledRemindersCommand): Promise<number> {
  const read = await readScheduledReminders(command.url);
  if (!read.ok) return fail(read.error);
  console.log(scheduledRemindersText(read.answer));
  const { unavailable } = read.answer;
  return unavailable.length === 0
    ? EXIT_OK
    : fail(
        `ledger shard(s) ${unavailable.join(', ')} did not answer: their reminders are missing above`,
      );
}

/**
 * Builds the event of the subscription as the product API would, signs it now with the
 * development key and POSTs it to the worker; prints what was sent and the answer. Exit 1 when
 * the subscription is unknown or cannot have that event, the worker is not running, or it refused.
 */
async function sendLifecycleEvent(env: LocalPortal, command: LifecycleCommand): Promise<number> {
  const key = env.LIFECYCLE_HMAC_KEY;
  if (!key) return fail("LIFECYCLE_HMAC_KEY is not in wrangler.toml's [env.development.vars]");
  const subscription = await findSubscription(env.PORTAL_DB, command.subscriptionId);
  if (subscription === null) {
    return fail(
      `no subscription ${command.subscriptionId} in the embedded portal (npm run portal -- subscriptions lists them)`,
    );
  }
  // As the product API does, on its books before it tells anyone: each payment a row, a failed
  // renewal's amount due (which the recovery link's page pays), a cancellation's end.
  const kept = await newLifecycleEvent(env.PORTAL_DB, subscription, command.type, {
    id: prefixedId('evt'),
    amount: command.amount,
    occurredAt: new Date().toISOString(),
  });
  if (!kept.ok) return fail(kept.error);
  const body = JSON.stringify(kept.body);
  let response: Response;
  try {
    response = await postLifecycleEvent(command.url, key, body);
  } catch (error) {
    return fail(
      `no worker answers at ${command.url} (${(error as Error).message}): start it with npm start`,
    );
  }
  const answer = await response.text();
  console.log(`sent ${body}`);
  console.log(`${response.status} ${answer}`);
  return response.ok
    ? EXIT_OK
    : fail(`the worker refused the ${command.type} (${response.status})`);
}

async function runOn(
  db: D1Database,
  command: Exclude<PortalCommand, LifecycleCommand | ScheduledRemindersCommand>,
): Promise<void> {
  switch (command.name) {
    case 'users':
      return printTable('users', USER_COLUMNS, await listUsers(db));
    case 'subscriptions':
      return printTable('subscriptions', SUBSCRIPTION_COLUMNS, await listSubscriptions(db));
    case 'payments':
      return printTable('payments', PAYMENT_COLUMNS, await listPayments(db));
    case 'lookups':
      return printTable('phone lookups', LOOKUP_COLUMNS, await listLookups(db));
    case 'reminders':
      return printTable('reminders', REMINDER_COLUMNS, await listReminders(db));
    case 'declarations':
      return printTable('declarations', DECLARATION_COLUMNS, await listDeclarations(db));
    case 'save-offers':
      return printTable('save offers', SAVE_OFFER_COLUMNS, await listSaveOffers(db));
    case 'fail':
      await switchFaultOn(db, command.call, command.count, command);
      console.log(describeFault(command));
  }
}

async function run(command: PortalCommand, options: StoreOptions): Promise<number> {
  // The ledger is the worker's, out of the platform proxy's reach: no portal database to open.
  if (command.name === 'scheduled-reminders') return printScheduledReminders(command);
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_TO);
  return withPortal(persistTo, async (env) => {
    if (!(await isMigrated(env.PORTAL_DB))) {
      const flag = options.persistTo ? ` -- --persist-to ${options.persistTo}` : '';
      return fail(
        `the portal database in ${persistTo} has not been migrated yet: run npm start or npm run portal:migrate${flag} first`,
      );
    }
    if (command.name === 'lifecycle') return sendLifecycleEvent(env, command);
    await runOn(env.PORTAL_DB, command);
    return EXIT_OK;
  });
}

process.exitCode = await runTool(process.argv.slice(2), {
  usage: PORTAL_CLI_USAGE,
  parseArgs: parsePortalArgs,
  run,
});
