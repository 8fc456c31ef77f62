import { hostname, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { publishGate } from '../worker/alerts/break-glass';
import { approvalIsRequired } from '../worker/config/approval';
import type { Clearance, GateRefusal, PublishGate } from '../worker/config/gate';
import { type PublishOutcome, type PublishStores, publish } from '../worker/config/publish';
import { d1Runner, type SqlRunner, versionStore } from '../worker/config/versions';
import { fail, type StoreOptions } from './cli';
import { applyMigrations } from './d1-migrations';
import { type KvStore, localStoreLabel, openRemoteStore } from './kv-store';
import {
  DEFAULT_PERSIST_TO,
  openLocalPlatform,
  PROJECT_ROOT,
  WRANGLER_CONFIG,
} from './local-platform';
import { remoteD1Runner } from './remote-d1';
import { runWrangler, type WranglerRunner } from './wrangler-cli';

/**
 * What `npm run config` publishes through: KV's keys and the version history in CONFIG_DB of
 * one wrangler.toml environment (`--env`), locally through wrangler's platform proxy (the files
 * `npm start` serves) or remotely through the wrangler CLI. The console publishes through the
 * same worker/config/publish.ts, so the history is complete whichever tool was used.
 */
const CONFIG_MIGRATIONS = join(PROJECT_ROOT, 'worker/config/migrations');

export interface ConfigStores extends PublishStores {
  kv: KvStore;
  /** CONFIG_DB itself, for the other histories it holds (the copy's). */
  sql: SqlRunner;
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
    const sql = remoteD1Runner('CONFIG_DB', environment, wrangler);
    const setting = await declaredApprovalSetting(environment);
    return use({ kv, live: kv, sql, versions: versionStore(sql), gate: cliGate(sql, [setting]) });
  }
  const persistTo = resolve(options.persistTo ?? DEFAULT_PERSIST_TO);
  const platform = await openLocalPlatform<{
    FUNNEL_CONFIG: KVNamespace;
    CONFIG_DB: D1Database;
    PUBLISH_APPROVAL?: string;
  }>(persistTo, environment);
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
    const sql = d1Runner(platform.env.CONFIG_DB);
    return await use({
      kv,
      live: kv,
      sql,
      versions: versionStore(sql),
      // Development's local state is npm start's: a local webhook receiver is allowed there.
      rules: { development: environment === 'development' },
      // What `wrangler dev` runs with: wrangler.toml's vars and .dev.vars.
      gate: cliGate(sql, [platform.env.PUBLISH_APPROVAL], environment === 'development'),
    });
  } finally {
    await platform.dispose();
  }
}

/**
 * PUBLISH_APPROVAL as wrangler.toml declares it for a deployed environment: the CLI is held to
 * the gate the worker is (worker/config/gate.ts). Set in the dashboard instead, the CLI cannot
 * see it: docs/operate.md asks for it in wrangler.toml.
 */
async function declaredApprovalSetting(environment: string): Promise<string | undefined> {
  const { unstable_readConfig } = await import('wrangler');
  const config = unstable_readConfig({
    config: WRANGLER_CONFIG,
    env: environment === 'production' ? undefined : environment,
  });
  const value = (config.vars as Record<string, unknown>).PUBLISH_APPROVAL;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The gate as the command line meets it: the same draft, history and alerts as the worker's.
 * Required where the environment's setting says so, or the shell's PUBLISH_APPROVAL does (which
 * can only hold a command to the gate, never let it around).
 */
function cliGate(
  sql: SqlRunner,
  settings: readonly (string | undefined)[],
  development = false,
): PublishGate {
  const required = [...settings, process.env.PUBLISH_APPROVAL].some(approvalIsRequired);
  return publishGate(sql, required, development);
}

/**
 * What lets a command's publish through the gate: CONFIG_BREAK_GLASS (its reason) breaks the
 * glass, announced to the alerts webhook; else `fallback` (a ramp's hold or roll back), or none.
 */
export function cliClearance(fallback: Clearance = { kind: 'none' }): Clearance {
  const reason = process.env.CONFIG_BREAK_GLASS?.trim();
  return reason ? { kind: 'break_glass', reason } : fallback;
}

/** A publish held at the gate, as the command line says it. */
export function gateRefusalText(refusal: GateRefusal): string {
  if (refusal.kind === 'break_glass_refused') return `${refusal.why}; nothing written`;
  const paths = refusal.reasons.map((reason) => `${reason.path} (${reason.reason})`).join(', ');
  return `PUBLISH_APPROVAL is required here and this changes what visitors get: ${paths}. Publish it through the console's review (a second person approves the shared draft), or in an emergency set CONFIG_BREAK_GLASS="<reason>" (the alerts webhook is told, the history keeps it); nothing written`;
}

/** Who publishes from the command line: CONFIG_AUTHOR, else the login and machine. */
export function cliAuthor(): string {
  return process.env.CONFIG_AUTHOR?.trim() || `${userInfo().username}@${hostname()} (cli)`;
}

/**
 * Who, why and when of a publish from the command line, shared by every command that publishes
 * (publishFromCli's, set's, the translations'): its author, the note, the `cli` source, what
 * lets it through the gate (cliClearance by default) and the time now.
 */
export function cliPublishing(note: string, clearance: Clearance = cliClearance()) {
  return { author: cliAuthor(), note, source: 'cli' as const, clearance, now: new Date() };
}

/** What a command's publish gave: the version and its document, or the exit code it printed. */
export type CliPublished = Extract<PublishOutcome, { kind: 'published' }> | number;

/**
 * Publishes `document` from the command line as the next version on top of the head, as the
 * console does (worker/config/publish.ts): a refusal, with its paths, or a publish that came in
 * meanwhile is printed and answered with its exit code, nothing written.
 */
export async function publishFromCli(
  stores: ConfigStores,
  document: unknown,
  note: string,
  clearance: Clearance = cliClearance(),
): Promise<CliPublished> {
  const head = await stores.versions.head();
  const outcome = await publish(stores, {
    base: head?.seq ?? null,
    document,
    ...cliPublishing(note, clearance),
  });
  if (outcome.kind === 'invalid') {
    const why = outcome.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message));
    return fail(`${why.join('; ')}; nothing written`);
  }
  if (outcome.kind === 'conflict')
    return fail(`${outcome.head.id} was published meanwhile; nothing written, run it again`);
  if (outcome.kind !== 'published') return fail(gateRefusalText(outcome));
  return outcome;
}
