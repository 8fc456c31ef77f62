import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import type { StoreOptions } from './cli';
import { DEFAULT_PERSIST_TO, openLocalPlatform, PROJECT_ROOT } from './local-platform';

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

/** Opens the store `options` name, hands it to `use` and closes it whatever `use` does. */
export async function withStore<T>(
  options: StoreOptions,
  use: (store: KvStore) => Promise<T>,
): Promise<T> {
  const store = options.remote
    ? openRemoteStore()
    : await openLocalStore(resolve(options.persistTo ?? DEFAULT_PERSIST_TO));
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function openLocalStore(persistTo: string): Promise<KvStore> {
  const platform = await openLocalPlatform<{ FUNNEL_CONFIG: KVNamespace }>(persistTo);
  const kv = platform.env[KV_BINDING];
  return {
    label: `local KV (${persistTo})`,
    read: (key) => kv.get(key, 'text'),
    write: (key, value) => kv.put(key, value),
    remove: (key) => kv.delete(key),
    close: () => platform.dispose(),
  };
}

const execFileAsync = promisify(execFile);

function runWrangler(args: readonly string[]) {
  // No shell: the value is passed as one argument, whatever quotes or `$` it contains.
  return execFileAsync('npx', ['wrangler', ...args], {
    cwd: PROJECT_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** The deployed namespace, through `wrangler kv key get|put --remote` (uses wrangler's login). */
export function openRemoteStore(): KvStore {
  const target = ['--binding', KV_BINDING, '--remote'];
  return {
    label: `remote KV (binding ${KV_BINDING})`,
    async read(key) {
      try {
        const { stdout } = await runWrangler(['kv', 'key', 'get', key, ...target]);
        return stdout;
      } catch (error) {
        // wrangler 4.86 reports a missing key as a failed fetch with status 404.
        if (/ - 404: /.test(wranglerStderr(error))) return null;
        throw new Error(`wrangler kv key get ${key} failed: ${wranglerMessage(error)}`);
      }
    },
    async write(key, value) {
      try {
        await runWrangler(['kv', 'key', 'put', key, value, ...target]);
      } catch (error) {
        throw new Error(`wrangler kv key put ${key} failed: ${wranglerMessage(error)}`);
      }
    },
    async remove(key) {
      try {
        await runWrangler(['kv', 'key', 'delete', key, ...target]);
      } catch (error) {
        throw new Error(`wrangler kv key delete ${key} failed: ${wranglerMessage(error)}`);
      }
    },
    close: async () => {},
  };
}

function wranglerStderr(error: unknown): string {
  return stripVTControlCharacters(String((error as { stderr?: string }).stderr ?? ''));
}

/** wrangler's own error line (`✘ [ERROR] ...`), without npm's warnings around it. */
export function wranglerMessage(error: unknown): string {
  const line = wranglerStderr(error)
    .split('\n')
    .find((l) => l.includes('[ERROR]'));
  return (line ?? (error as Error).message).replace(/^.*\[ERROR\]\s*/, '').trim();
}
