import { resolve } from 'node:path';
import type { StoreOptions } from './cli';
import { DEFAULT_PERSIST_TO, openLocalPlatform } from './local-platform';
import { runWrangler, type WranglerRunner, wranglerMessage, wranglerStderr } from './wrangler-cli';
import { type Environment, wranglerEnvArgs } from './wrangler-environment';

/**
 * The KV plumbing of the command-line tools that edit the FUNNEL_CONFIG namespace
 * (`npm run config`, `npm run translations`): reading and writing its keys, locally through
 * wrangler's platform proxy or remotely through the wrangler CLI. Kept in one place so that both
 * tools see the same files as `wrangler dev` and fail with the same messages; what a tool reads
 * or writes stays with the tool.
 */

const KV_BINDING = 'FUNNEL_CONFIG';

export interface KvStore {
  /** Where the values live, for the messages. */
  label: string;
  read(key: string): Promise<string | null>;
  write(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the store `options` name, hands it to `use` and closes it whatever `use` does; a remote
 * store is reached through `wrangler` (a test's stand-in, or the wrangler CLI).
 */
export async function withStore<T>(
  options: StoreOptions,
  use: (store: KvStore) => Promise<T>,
  wrangler: WranglerRunner = runWrangler,
): Promise<T> {
  const store = options.remote
    ? openRemoteStore(options.environment, wrangler)
    : await openLocalStore(resolve(options.persistTo ?? DEFAULT_PERSIST_TO), options.environment);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function openLocalStore(persistTo: string, environment: Environment): Promise<KvStore> {
  const platform = await openLocalPlatform<{ FUNNEL_CONFIG: KVNamespace }>(persistTo, environment);
  const kv = platform.env[KV_BINDING];
  return {
    label: localStoreLabel('KV', persistTo, environment),
    read: (key) => kv.get(key, 'text'),
    write: (key, value) => kv.put(key, value),
    remove: (key) => kv.delete(key),
    close: () => platform.dispose(),
  };
}

/** How the messages name a local store: `local KV (<dir>, --env staging)`. */
export function localStoreLabel(kind: string, persistTo: string, environment: Environment) {
  return `local ${kind} (${persistTo}, --env ${environment})`;
}

/**
 * The environment's deployed namespace, through `wrangler kv key get|put|delete --binding
 * FUNNEL_CONFIG --remote --env <name>` (uses wrangler's login): the binding's id is the one that
 * environment of wrangler.toml names.
 */
export function openRemoteStore(environment: Environment, wrangler: WranglerRunner): KvStore {
  const target = ['--binding', KV_BINDING, '--remote', ...wranglerEnvArgs(environment)];
  return {
    label: `remote KV (binding ${KV_BINDING}, --env ${environment})`,
    async read(key) {
      try {
        const { stdout } = await wrangler(['kv', 'key', 'get', key, ...target]);
        return stdout;
      } catch (error) {
        // wrangler 4.86 reports a missing key as a failed fetch with status 404.
        if (/ - 404: /.test(wranglerStderr(error))) return null;
        throw new Error(`wrangler kv key get ${key} failed: ${wranglerMessage(error)}`);
      }
    },
    async write(key, value) {
      try {
        await wrangler(['kv', 'key', 'put', key, value, ...target]);
      } catch (error) {
        throw new Error(`wrangler kv key put ${key} failed: ${wranglerMessage(error)}`);
      }
    },
    async remove(key) {
      try {
        await wrangler(['kv', 'key', 'delete', key, ...target]);
      } catch (error) {
        throw new Error(`wrangler kv key delete ${key} failed: ${wranglerMessage(error)}`);
      }
    },
    close: async () => {},
  };
}
