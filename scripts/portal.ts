import { resolve } from 'node:path';
import { switchFaultOn } from '../portal/faults';
import { isMigrated, listLookups, listSubscriptions, listUsers } from '../portal/store/listings';
import { EXIT_OK, fail, runTool, type StoreOptions } from './cli';
import { DEFAULT_PERSIST_TO, openLocalPlatform } from './local-platform';
import { PORTAL_CLI_USAGE, type PortalCommand, parsePortalArgs } from './portal/arguments';
import { LOOKUP_COLUMNS, SUBSCRIPTION_COLUMNS, USER_COLUMNS } from './portal/listings';
import { type Column, formatTable } from './portal/table';

/**
 * `npm run portal -- users | subscriptions | lookups | fail <call> [count]`: what the embedded
 * portal emulator stored while a developer used the funnel under `npm start`, and its failure
 * switch. Reads the same local D1 files as `wrangler dev`, through wrangler's platform proxy.
 * Arguments and tables are in scripts/portal/ (pure, unit-tested); this file only does the I/O.
 */

async function withPortalDb<T>(persistTo: string, use: (db: D1Database) => Promise<T>): Promise<T> {
  const platform = await openLocalPlatform<{ PORTAL_DB: D1Database }>(persistTo);
  try {
    return await use(platform.env.PORTAL_DB);
  } finally {
    await platform.dispose();
  }
}

function printTable<R>(what: string, columns: readonly Column<R>[], rows: readonly R[]): void {
  console.log(rows.length === 0 ? `No ${what} stored yet.` : formatTable(columns, rows));
}

async function runOn(db: D1Database, command: PortalCommand): Promise<void> {
  switch (command.name) {
    case 'users':
      return printTable('users', USER_COLUMNS, await listUsers(db));
    case 'subscriptions':
      return printTable('subscriptions', SUBSCRIPTION_COLUMNS, await listSubscriptions(db));
    case 'lookups':
      return printTable('phone lookups', LOOKUP_COLUMNS, await listLookups(db));
    case 'fail':
      await switchFaultOn(db, command.call, command.count);
      console.log(
        command.count === 0
          ? `${command.call}: failure switched off`
          : `${command.call}: the next ${command.count} call(s) fail`,
      );
  }
}

async function run(command: PortalCommand, options: StoreOptions): Promise<number> {
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_TO);
  return withPortalDb(persistTo, async (db) => {
    if (!(await isMigrated(db))) {
      const flag = options.persistTo ? ` -- --persist-to ${options.persistTo}` : '';
      return fail(
        `the portal database in ${persistTo} has not been migrated yet: run npm start or npm run portal:migrate${flag} first`,
      );
    }
    await runOn(db, command);
    return EXIT_OK;
  });
}

process.exitCode = await runTool(process.argv.slice(2), {
  usage: PORTAL_CLI_USAGE,
  parseArgs: parsePortalArgs,
  run,
});
