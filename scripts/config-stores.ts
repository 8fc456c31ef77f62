import { hostname, userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { PublishStores } from '../worker/config/publish';
import { d1Runner, type SqlRunner, type SqlValue, versionStore } from '../worker/config/versions';
import type { StoreOptions } from './cli';
import { applyMigrations } from './d1-migrations';
import { type KvStore, localStoreLabel, openRemoteStore } from './kv-store';
import { DEFAULT_PERSIST_TO, openLocalPlatform } from './local-platform';
import { runWrangler, type WranglerRunner, wranglerMessage } from './wrangler-cli';
import { type Environment, wranglerEnvArgs } from './wrangler-environment';

/**
 * What `npm run config` publishes through: KV's keys and the version history in CONFIG_DB of
 * one wrangler.toml environment (`--env`), locally through wrangler's platform proxy (the files
 * `npm start` serves) or remotely through the wrangler CLI. The console publishes through the
 * same worker/config/publish.ts, so the history is complete whichever tool was used.
 */
const CONFIG_MIGRATIONS = 'worker/config/migrations';

export interface ConfigStores extends PublishStores {
  kv: KvStore;
}

/** Opens the stores `options` name; a remote one through `wrangler`, as withStore does. */
export async function withConfigStores<T>(
  options: StoreOptions,
  use: (stores: ConfigStores) => Promise<T>,
  wrangler: WranglerRunner = runWrangler,
): Promise<T> {
  const { environment } = options;
  if (options.remote) {
    const kv = openRemoteStore(environment, wrangler);
    return use({ kv, live: kv, versions: versionStore(remoteD1Runner(environment, wrangler)) });
  }
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_TO);
  const platform = await openLocalPlatform<{ FUNNEL_CONFIG: KVNamespace; CONFIG_DB: D1Database }>(
    persistTo,
    environment,
  );
  const kv: KvStore = {
    label: localStoreLabel('KV', persistTo, environment),
    read: (key) => platform.env.FUNNEL_CONFIG.get(key, 'text'),
    write: (key, value) => platform.env.FUNNEL_CONFIG.put(key, value),
    remove: (key) => platform.env.FUNNEL_CONFIG.delete(key),
    close: async () => {},
  };
  try {
    // A state directory `npm start` has not migrated yet (a new --persist-to) gets the history's
    // table here, recorded as wrangler records it.
    await applyMigrations(platform.env.CONFIG_DB, CONFIG_MIGRATIONS);
    return await use({
      kv,
      live: kv,
      versions: versionStore(d1Runner(platform.env.CONFIG_DB)),
      // Development's local state is npm start's: a local webhook receiver is allowed there.
      rules: { development: environment === 'development' },
    });
  } finally {
    await platform.dispose();
  }
}

/** Who publishes from the command line: CONFIG_AUTHOR, else the login and machine. */
export function cliAuthor(): string {
  return process.env.CONFIG_AUTHOR?.trim() || `${userInfo().username}@${hostname()} (cli)`;
}

/**
 * The environment's deployed CONFIG_DB through `wrangler d1 execute CONFIG_DB --remote --env
 * <name> --json`, which takes no bound parameters: each value is written into the statement as
 * an SQL literal (numbers as digits, text quoted with its quotes doubled, which is all SQLite's
 * literal syntax needs).
 */
function remoteD1Runner(environment: Environment, wrangler: WranglerRunner): SqlRunner {
  async function execute(sql: string, params: readonly SqlValue[]) {
    try {
      const { stdout } = await wrangler([
        'd1',
        'execute',
        'CONFIG_DB',
        '--remote',
        ...wranglerEnvArgs(environment),
        '--json',
        '--command',
        inline(sql, params),
      ]);
      const [result] = JSON.parse(stdout) as { results: unknown[]; meta?: { changes?: number } }[];
      return { results: result?.results ?? [], changes: result?.meta?.changes ?? 0 };
    } catch (error) {
      throw new Error(`wrangler d1 execute CONFIG_DB failed: ${wranglerMessage(error)}`);
    }
  }
  return {
    run: async (sql, params) => ({ changes: (await execute(sql, params)).changes }),
    all: async <T>(sql: string, params: readonly SqlValue[]) =>
      (await execute(sql, params)).results as T[],
  };
}

/** `sql` with each `?` replaced by the next parameter as a literal. */
function inline(sql: string, params: readonly SqlValue[]): string {
  let next = 0;
  const text = sql.replace(/\?/g, () => {
    if (next >= params.length) throw new Error('more placeholders than parameters');
    return literal(params[next++]!);
  });
  if (next !== params.length) throw new Error('more parameters than placeholders');
  return text;
}

function literal(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}
