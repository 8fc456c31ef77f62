import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PORTAL_CLI_USAGE, type PortalCommand, parsePortalArgs } from '../portal/cli/arguments';
import { LOOKUP_COLUMNS, SUBSCRIPTION_COLUMNS, USER_COLUMNS } from '../portal/cli/listings';
import { type Column, formatTable } from '../portal/cli/table';
import { switchFaultOn } from '../portal/faults';
import { isMigrated, listLookups, listSubscriptions, listUsers } from '../portal/store/listings';
import { EXIT_OK, fail, runTool, type StoreOptions } from './kv-store';

/**
 * `npm run portal -- users | subscriptions | lookups | fail <call> [count]`: what the embedded
 * portal emulator stored while a developer used the funnel under `npm start`, and its failure
 * switch. Reads the same local D1 files as `wrangler dev`, through wrangler's platform proxy.
 * Arguments and tables are in portal/cli/ (pure, unit-tested); this file only does the I/O.
 */

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WRANGLER_CONFIG = join(PROJECT_ROOT, 'wrangler.toml');
/** wrangler dev's default `--persist-to`: `.wrangler/state` beside the wrangler config. */
const DEFAULT_PERSIST_TO = join(PROJECT_ROOT, '.wrangler', 'state');

async function withPortalDb<T>(persistTo: string, use: (db: D1Database) => Promise<T>): Promise<T> {
  // Loaded on demand: wrangler is a large module and `--help` or a usage error need none of it.
  const { getPlatformProxy } = await import('wrangler');
  const proxy = await getPlatformProxy<{ PORTAL_DB: D1Database }>({
    configPath: WRANGLER_CONFIG,
    // `wrangler dev --persist-to <dir>` keeps its data in <dir>/v3; getPlatformProxy takes the
    // v3 directory itself. Both must name the same files or this would not see `npm start`'s.
    persist: { path: join(persistTo, 'v3') },
    remoteBindings: false,
  });
  try {
    return await use(proxy.env.PORTAL_DB);
  } finally {
    await proxy.dispose();
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
          : `${command.call}: the next ${command.count} call(s) answer 500`,
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
