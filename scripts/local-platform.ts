import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Environment, proxyEnvironment } from './wrangler-environment';

/**
 * The local bindings `npm start` uses (KV, D1, R2), opened from Node for the command-line tools
 * (`npm run config`, `translations`, `portal`, `events`) through wrangler's platform proxy, so a
 * tool reads and writes the very files `wrangler dev` serves. Another environment's bindings
 * (`--env staging`) are its own local copies, kept under the same directory by their ids, as
 * `wrangler dev --env staging` keeps them.
 */

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WRANGLER_CONFIG = join(PROJECT_ROOT, 'wrangler.toml');
/** wrangler dev's default `--persist-to`: `.wrangler/state` beside the wrangler config. */
export const DEFAULT_PERSIST_TO = join(PROJECT_ROOT, '.wrangler', 'state');

export interface LocalPlatform<Env> {
  env: Env;
  dispose(): Promise<void>;
}

/**
 * Platforms held open between commands, by state directory and environment, while a process
 * runs many commands in a row (the CLIs' tests: each platform is a workerd, a second or more to
 * start); undefined otherwise, so each command opens its own and closes it.
 */
let heldOpen: Map<string, Promise<LocalPlatform<unknown>>> | undefined;

/**
 * From now on, a command's platform stays open for the next command on the same state and
 * environment. Returns the function that closes them all.
 */
export function holdLocalPlatformsOpen(): () => Promise<void> {
  const held = new Map<string, Promise<LocalPlatform<unknown>>>();
  heldOpen = held;
  return async () => {
    if (heldOpen === held) heldOpen = undefined;
    // One that failed to open has nothing to close.
    const opened = await Promise.allSettled(held.values());
    await Promise.all(
      opened.map((result) => (result.status === 'fulfilled' ? result.value.dispose() : undefined)),
    );
  };
}

/**
 * `environment` defaults to the one `npm start` runs (`wrangler dev --env development`): only it
 * has PORTAL_DB, the embedded portal's database.
 */
export async function openLocalPlatform<Env>(
  persistTo: string,
  environment: Environment = 'development',
): Promise<LocalPlatform<Env>> {
  if (!heldOpen) return openPlatformProxy<Env>(persistTo, environment);
  const key = `${environment}\0${persistTo}`;
  let platform = heldOpen.get(key);
  if (!platform) {
    const held = heldOpen;
    platform = openPlatformProxy(persistTo, environment);
    held.set(key, platform);
    // A start that failed is tried again by the next command, as without holding.
    platform.catch(() => held.delete(key));
  }
  // Closed by the function holdLocalPlatformsOpen returned, not by the command.
  const { env } = (await platform) as LocalPlatform<Env>;
  return { env, dispose: async () => {} };
}

async function openPlatformProxy<Env>(
  persistTo: string,
  environment: Environment,
): Promise<LocalPlatform<Env>> {
  // wrangler warns that the RateLimiter Durable Object cannot run here; these tools never use it.
  process.env.WRANGLER_LOG ??= 'error';
  // Loaded on demand: wrangler is a large module and `--help` or a usage error need none of it.
  const { getPlatformProxy } = await import('wrangler');
  const proxy = await getPlatformProxy<Env & Record<string, unknown>>({
    configPath: WRANGLER_CONFIG,
    environment: proxyEnvironment(environment),
    // `wrangler dev --persist-to <dir>` keeps its data in <dir>/v3, while getPlatformProxy takes
    // the v3 directory itself; both must name the same files or `npm start` would not see what
    // these tools write.
    persist: { path: join(persistTo, 'v3') },
    // No binding is `remote = true`; never reach for the network in local mode.
    remoteBindings: false,
  });
  return { env: proxy.env, dispose: () => proxy.dispose() };
}
