import { stripVTControlCharacters } from 'node:util';
import type { Unstable_Config } from 'wrangler';
import { CRONS } from '../../worker/crons';
import { SECRETS } from '../../worker/env';
import type { WranglerRunner } from '../wrangler-cli';

/**
 * `npm run doctor -- --env <name> [--remote]`: whether an environment is ready for traffic, before
 * it gets any (docs/operate.md, "Before the first visitor"). Offline, from wrangler's own reading
 * of wrangler.toml: every binding the code uses is declared there with a resource that is not the
 * repository's placeholder, and the settings a deployed worker cannot run without are set. With
 * `--remote`, through wrangler and its login: every bucket, queue, KV namespace and D1 database
 * the bindings name exists, every secret the worker needs is put, and every D1 migration is
 * applied. Each finding says what to run.
 */

export type Severity = 'ok' | 'warning' | 'error';

/** One thing checked, and what to do when it is not right. */
export interface Finding {
  severity: Severity;
  check: string;
  detail: string;
}

/** The environments of wrangler.toml as the CLIs name them; production is its top level. */
export type DoctorEnvironment = 'development' | 'staging' | 'production';

/** Bindings only npm start's embedded product API uses (docs/architecture.md). */
const DEVELOPMENT_ONLY_BINDINGS = new Set(['PORTAL_DB']);

/**
 * Secrets a deployed worker runs without, each with what is lost; every other one of SECRETS
 * is needed before the first visitor.
 */
const OPTIONAL_SECRETS: Record<string, string> = {
  AMPLITUDE_API_KEY: 'events reach only the EVENTS_ARCHIVE bucket, not Amplitude',
  META_ACCESS_TOKEN: "purchases do not reach Meta's Conversions API",
  TIKTOK_ACCESS_TOKEN: "purchases do not reach TikTok's Events API",
  GEOCODING_API_KEY: 'the searching screens show no place name',
  STATIC_MAPS_API_KEY: 'the searching screens keep their drawn map',
  STRIPE_FINGERPRINT_KEY: 'Stripe charges are limited per visitor and address only, not per card',
};

/** A resource id the repository ships (all zeros, all ones…): never an account's real one. */
export function isPlaceholderId(id: string | undefined): boolean {
  if (!id) return true;
  return new Set(id.replace(/-/g, '')).size <= 2;
}

/** wrangler's `--env` for an environment: production is the top level. */
export function wranglerEnvOf(environment: DoctorEnvironment): string {
  return environment === 'production' ? '' : environment;
}

/** Every binding a configuration declares, by kind. */
function declaredBindings(config: Unstable_Config): Map<string, string> {
  const bindings = new Map<string, string>();
  for (const kv of config.kv_namespaces) bindings.set(kv.binding, 'KV namespace');
  for (const db of config.d1_databases) bindings.set(db.binding, 'D1 database');
  for (const bucket of config.r2_buckets) bindings.set(bucket.binding, 'R2 bucket');
  for (const object of config.durable_objects.bindings) bindings.set(object.name, 'Durable Object');
  for (const producer of config.queues.producers ?? []) bindings.set(producer.binding, 'queue');
  if (config.images?.binding) bindings.set(config.images.binding, 'Images');
  if (config.assets?.binding) bindings.set(config.assets.binding, 'assets');
  return bindings;
}

/** The bindings the code uses (npm start's, which has them all) that `config` lacks. */
function missingBindings(config: Unstable_Config, reference: Unstable_Config): Finding[] {
  const declared = declaredBindings(config);
  const findings = [...declaredBindings(reference)]
    .filter(([name]) => !DEVELOPMENT_ONLY_BINDINGS.has(name) && !declared.has(name))
    .map(([name, kind]) => ({
      severity: 'error' as const,
      check: `binding ${name}`,
      detail: `no ${kind} bound as ${name}: add it to this environment in wrangler.toml (docs/operate.md, "Deploying")`,
    }));
  return findings.length > 0
    ? findings
    : [
        {
          severity: 'ok',
          check: 'bindings',
          detail: `all ${declared.size} the code uses are declared`,
        },
      ];
}

/** KV and D1 ids still the repository's placeholders. */
function placeholderIds(config: Unstable_Config): Finding[] {
  const ids = [
    ...config.kv_namespaces.map((kv) => ({
      name: kv.binding,
      id: kv.id,
      create: 'kv namespace create',
    })),
    ...config.d1_databases.map((db) => ({
      name: db.binding,
      id: db.database_id,
      create: 'd1 create',
    })),
  ];
  const placeholders = ids.filter((entry) => isPlaceholderId(entry.id));
  return placeholders.length > 0
    ? placeholders.map((entry) => ({
        severity: 'error' as const,
        check: `${entry.name} id`,
        detail: `"${entry.id ?? ''}" is the repository's placeholder: create it (npx wrangler ${entry.create}) and put its id in wrangler.toml`,
      }))
    : [{ severity: 'ok', check: 'resource ids', detail: `${ids.length} KV and D1 ids set` }];
}

/** The variables a deployed worker cannot serve without, and those it serves less without. */
function settings(config: Unstable_Config): Finding[] {
  const vars = config.vars as Record<string, unknown>;
  const set = (name: string) =>
    typeof vars[name] === 'string' && (vars[name] as string).trim() !== '';
  const findings: Finding[] = [];
  if (!set('PORTAL_URL')) {
    findings.push({
      severity: 'error',
      check: 'PORTAL_URL',
      detail: 'not set: every /api call fails; set the product API in [vars]',
    });
  }
  for (const name of ['ACCESS_TEAM_DOMAIN', 'ACCESS_AUD']) {
    if (!set(name)) {
      findings.push({
        severity: 'error',
        check: name,
        detail:
          "not set: the console answers 503; set the console's Access application in [vars] (docs/operate.md)",
      });
    }
  }
  const google = vars.GOOGLE_CLIENT_ID;
  if (typeof google !== 'string' || google.includes('geofunnel-local')) {
    findings.push({
      severity: 'warning',
      check: 'GOOGLE_CLIENT_ID',
      detail:
        'the local placeholder: sign-up offers no Google button until the real client id is set',
    });
  }
  if (findings.length === 0)
    findings.push({
      severity: 'ok',
      check: 'settings',
      detail: "PORTAL_URL and the console's Access set",
    });
  return findings;
}

/** The crons worker/scheduled.ts runs that the environment's [triggers] leave out. */
function missingCrons(config: Unstable_Config): Finding[] {
  const declared = new Set(config.triggers.crons ?? []);
  const missing = Object.entries(CRONS).filter(([cron]) => !declared.has(cron));
  return missing.length > 0
    ? missing.map(([cron, lost]) => ({
        severity: 'error' as const,
        check: `cron ${cron}`,
        detail: `not in [triggers] crons: ${lost}; add it to this environment in wrangler.toml`,
      }))
    : [
        {
          severity: 'ok',
          check: 'crons',
          detail: `the ${Object.keys(CRONS).length} the worker runs are declared`,
        },
      ];
}

/** What can be told from wrangler.toml alone. */
export function offlineFindings(
  environment: DoctorEnvironment,
  config: Unstable_Config,
  reference: Unstable_Config,
): Finding[] {
  const bindings = missingBindings(config, reference);
  if (environment === 'development') return bindings;
  return [...bindings, ...missingCrons(config), ...placeholderIds(config), ...settings(config)];
}

/** The secrets put in the deployed environment, against SECRETS. */
export async function secretFindings(
  environment: DoctorEnvironment,
  wrangler: WranglerRunner,
): Promise<Finding[]> {
  const { stdout } = await wrangler([
    'secret',
    'list',
    '--env',
    wranglerEnvOf(environment),
    '--format',
    'json',
  ]);
  const put = new Set((JSON.parse(stdout) as { name: string }[]).map((secret) => secret.name));
  const findings: Finding[] = SECRETS.filter((name) => !put.has(name)).map((name) =>
    OPTIONAL_SECRETS[name]
      ? {
          severity: 'warning',
          check: `secret ${name}`,
          detail: `not put: ${OPTIONAL_SECRETS[name]}`,
        }
      : {
          severity: 'error',
          check: `secret ${name}`,
          detail: `not put: npx wrangler secret put ${name} --env ${wranglerEnvOf(environment) || "''"}`,
        },
  );
  return findings.length > 0
    ? findings
    : [{ severity: 'ok', check: 'secrets', detail: `all ${SECRETS.length} put` }];
}

/**
 * Whether `name` stands alone in wrangler's table or list output, its colours aside (not as part
 * of a longer name).
 */
function named(output: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w-])${escaped}($|[^\\w-])`, 'm').test(stripVTControlCharacters(output));
}

/**
 * Every resource the environment's bindings name, asked of the account: its R2 buckets, queues,
 * KV namespaces and D1 databases exist (a binding to one that does not fails the deploy, or the
 * first request that reaches it). Each missing one says how to create it.
 */
export async function resourceFindings(
  environment: DoctorEnvironment,
  config: Unstable_Config,
  wrangler: WranglerRunner,
): Promise<Finding[]> {
  const env = wranglerEnvOf(environment);
  const findings: Finding[] = [];
  const missing = (check: string, detail: string) =>
    findings.push({ severity: 'error', check, detail });
  const buckets = await wrangler(['r2', 'bucket', 'list']);
  for (const bucket of config.r2_buckets) {
    if (bucket.bucket_name && !named(buckets.stdout, bucket.bucket_name)) {
      missing(
        `bucket ${bucket.binding}`,
        `"${bucket.bucket_name}" does not exist in the account: npx wrangler r2 bucket create ${bucket.bucket_name}`,
      );
    }
  }
  const queueNames = new Set([
    ...(config.queues.producers ?? []).map((producer) => producer.queue),
    ...(config.queues.consumers ?? []).flatMap((consumer) => [
      consumer.queue,
      ...(consumer.dead_letter_queue ? [consumer.dead_letter_queue] : []),
    ]),
  ]);
  const queues = queueNames.size > 0 ? await wrangler(['queues', 'list']) : { stdout: '' };
  for (const queue of queueNames) {
    if (!named(queues.stdout, queue)) {
      missing(
        `queue ${queue}`,
        `does not exist in the account: npx wrangler queues create ${queue}`,
      );
    }
  }
  // The ids the account lists (wrangler prints both lists as JSON); a placeholder is said above.
  const listed = async (args: string[], key: 'id' | 'uuid') =>
    new Set(
      (JSON.parse((await wrangler(args)).stdout || '[]') as Record<string, string>[]).map(
        (entry) => entry[key],
      ),
    );
  const unknownId = (id: string | undefined, known: Set<string | undefined>) =>
    id !== undefined && !isPlaceholderId(id) && !known.has(id);
  const namespaceIds = await listed(['kv', 'namespace', 'list'], 'id');
  for (const kv of config.kv_namespaces.filter((each) => unknownId(each.id, namespaceIds))) {
    missing(
      `KV ${kv.binding}`,
      `no namespace with id ${kv.id} in the account: npx wrangler kv namespace create ${kv.binding} --env ${env || "''"}, then put its id in wrangler.toml`,
    );
  }
  const databaseIds = await listed(['d1', 'list', '--json'], 'uuid');
  for (const db of config.d1_databases.filter((each) => unknownId(each.database_id, databaseIds))) {
    missing(
      `D1 ${db.binding}`,
      `no database with id ${db.database_id} in the account: npx wrangler d1 create ${db.database_name ?? db.binding}, then put its id in wrangler.toml`,
    );
  }
  return findings.length > 0
    ? findings
    : [
        {
          severity: 'ok',
          check: 'resources',
          detail: `every bucket, queue, KV namespace and D1 database the bindings name exists`,
        },
      ];
}

/** Each D1 database's migrations not yet applied where it lives (remote, or npm start's). */
export async function migrationFindings(
  environment: DoctorEnvironment,
  config: Unstable_Config,
  wrangler: WranglerRunner,
): Promise<Finding[]> {
  const where = environment === 'development' ? '--local' : '--remote';
  const findings: Finding[] = [];
  for (const db of config.d1_databases.filter((each) => each.migrations_dir)) {
    const { stdout } = await wrangler([
      'd1',
      'migrations',
      'list',
      db.binding,
      where,
      '--env',
      wranglerEnvOf(environment),
    ]);
    const pending = [...new Set(stdout.match(/\d{4}_[\w-]+\.sql/g) ?? [])];
    findings.push(
      stdout.includes('No migrations to apply') || pending.length === 0
        ? { severity: 'ok', check: `${db.binding} migrations`, detail: 'all applied' }
        : {
            severity: 'error',
            check: `${db.binding} migrations`,
            detail: `${pending.length} not applied (${pending.join(', ')}): npx wrangler d1 migrations apply ${db.binding} ${where} --env ${wranglerEnvOf(environment) || "''"}, before the deploy`,
          },
    );
  }
  return findings;
}

/** The findings as the command prints them: ✓, ! or ✗ and a line each. */
export function formatFindings(findings: readonly Finding[]): string {
  const mark: Record<Severity, string> = { ok: '✓', warning: '!', error: '✗' };
  return findings
    .map((finding) => `${mark[finding.severity]} ${finding.check}: ${finding.detail}`)
    .join('\n');
}
