import { describe, expect, it } from 'vitest';
import { type Unstable_Config, unstable_readConfig } from 'wrangler';
import { runDoctor } from '../../scripts/doctor';
import { isPlaceholderId, offlineFindings, resourceFindings } from '../../scripts/doctor/checks';
import { WRANGLER_CONFIG } from '../../scripts/local-platform';
import { ALERTS_CRON, RETENTION_CRON } from '../../worker/crons';
import { SECRETS } from '../../worker/env';

/**
 * `npm run doctor -- --env <name> [--remote]` (docs/operate.md, "Before the first visitor"):
 * against the repository's wrangler.toml, whose deployed environments still hold placeholders,
 * and against a stand-in for wrangler's answers about the account.
 */

/** staging's resources as wrangler.toml names them: what an account ready for it holds. */
const STAGING: Unstable_Config = unstable_readConfig({ config: 'wrangler.toml', env: 'staging' });
const STAGING_QUEUES = [
  ...new Set([
    ...(STAGING.queues.producers ?? []).map((producer) => producer.queue),
    ...(STAGING.queues.consumers ?? []).flatMap((consumer) => [
      consumer.queue,
      ...(consumer.dead_letter_queue ? [consumer.dead_letter_queue] : []),
    ]),
  ]),
];

/**
 * wrangler as the account would answer: the secrets put, each database's pending migrations, and
 * the buckets, queues, KV namespaces and D1 databases it holds (by default, staging's all), in
 * the forms wrangler prints them.
 */
function fakeWrangler(options: {
  secrets: string[];
  pending: Record<string, string[]>;
  buckets?: string[];
  queues?: string[];
}) {
  const calls: string[][] = [];
  const buckets = options.buckets ?? STAGING.r2_buckets.map((bucket) => bucket.bucket_name ?? '');
  const queues = options.queues ?? STAGING_QUEUES;
  const run = async (args: readonly string[]) => {
    calls.push([...args]);
    if (args[0] === 'secret') {
      return {
        stdout: JSON.stringify(options.secrets.map((name) => ({ name, type: 'secret_text' }))),
      };
    }
    if (args[0] === 'r2') {
      // Labelled blocks, the labels coloured.
      return {
        stdout: `Listing buckets...\n${buckets.map((name) => `\u001b[37mname:\u001b[39m           ${name}\n\u001b[37mcreation_date:\u001b[39m  2026-11-01T00:00:00.000Z`).join('\n\n')}`,
      };
    }
    if (args[0] === 'queues') {
      return {
        stdout: `┌─────┬──────┐\n│ id │ name │\n${queues.map((name) => `│ 0f3a │ ${name} │`).join('\n')}\n└─────┴──────┘`,
      };
    }
    if (args[0] === 'kv') {
      return {
        stdout: JSON.stringify(
          STAGING.kv_namespaces.map((kv) => ({ id: kv.id, title: kv.binding })),
        ),
      };
    }
    if (args[0] === 'd1' && args[1] === 'list') {
      return {
        stdout: JSON.stringify(
          STAGING.d1_databases.map((db) => ({ uuid: db.database_id, name: db.database_name })),
        ),
      };
    }
    const pending = options.pending[args[3] ?? ''] ?? [];
    return {
      stdout:
        pending.length === 0
          ? '✅ No migrations to apply!'
          : `Migrations to be applied:\n│ Name │\n${pending.map((file) => `│ ${file} │`).join('\n')}`,
    };
  };
  return { run, calls };
}

describe('npm run doctor', () => {
  it('refuses the repository’s placeholders and unset settings for production, from wrangler.toml alone', async () => {
    const { code, output } = await runDoctor(['--env', 'production']);
    expect(code).toBe(1);
    expect(output).toContain('✓ bindings: all');
    expect(output).toContain(
      '✗ FUNNEL_CONFIG id: "00000000000000000000000000000000" is the repository\'s placeholder',
    );
    expect(output).toContain('✗ PORTAL_URL: not set');
    expect(output).toContain('✗ ACCESS_AUD: not set: the console answers 503');
    expect(output).toContain('! GOOGLE_CLIENT_ID: the local placeholder');
    expect(output.trim().split('\n').at(-1)).toBe('production: 6 to fix before traffic.');
  });

  it('with --remote: names each secret not put, and each database with migrations to apply', async () => {
    const wrangler = fakeWrangler({
      secrets: SECRETS.filter(
        (name) => name !== 'COOKIE_SIGNING_KEY' && name !== 'AMPLITUDE_API_KEY',
      ),
      pending: { EVENTS_DB: ['0009_dead_letter_destinations.sql'] },
    });
    const { code, output } = await runDoctor(['--env', 'staging', '--remote'], wrangler.run);
    expect(code).toBe(1);
    expect(output).toContain(
      '✗ secret COOKIE_SIGNING_KEY: not put: npx wrangler secret put COOKIE_SIGNING_KEY --env staging',
    );
    expect(output).toContain(
      '! secret AMPLITUDE_API_KEY: not put: events reach only the EVENTS_ARCHIVE',
    );
    expect(output).toContain(
      '✗ EVENTS_DB migrations: 1 not applied (0009_dead_letter_destinations.sql): npx wrangler d1 migrations apply EVENTS_DB --remote --env staging, before the deploy',
    );
    expect(output).toContain('✓ CONFIG_DB migrations: all applied');
    // The account asked about is staging's, never production's.
    expect(wrangler.calls).toContainEqual([
      'secret',
      'list',
      '--env',
      'staging',
      '--format',
      'json',
    ]);
    expect(
      wrangler.calls
        .filter((args) => args[1] === 'migrations')
        .every((args) => args.includes('staging')),
    ).toBe(true);
  });

  it('with --remote: names a bucket and a queue the account lacks, and how to create them', async () => {
    const [archive, ...otherBuckets] = STAGING.r2_buckets;
    const [firstQueue, ...otherQueues] = STAGING_QUEUES;
    const wrangler = fakeWrangler({
      secrets: [...SECRETS],
      pending: {},
      buckets: otherBuckets.map((bucket) => bucket.bucket_name ?? ''),
      // A queue named like it, but longer, is not it.
      queues: [`${firstQueue}-old`, ...otherQueues],
    });
    const { code, output } = await runDoctor(['--env', 'staging', '--remote'], wrangler.run);
    expect(code).toBe(1);
    expect(output).toContain(
      `✗ bucket ${archive?.binding}: "${archive?.bucket_name}" does not exist in the account: npx wrangler r2 bucket create ${archive?.bucket_name}`,
    );
    expect(output).toContain(
      `✗ queue ${firstQueue}: does not exist in the account: npx wrangler queues create ${firstQueue}`,
    );
    expect(output).not.toContain('✗ KV');
    expect(output).not.toContain('✗ D1');
    // With everything there: the resources line, and no error of theirs.
    const ready = await runDoctor(
      ['--env', 'staging', '--remote'],
      fakeWrangler({ secrets: [...SECRETS], pending: {} }).run,
    );
    expect(ready.output).toContain(
      '✓ resources: every bucket, queue, KV namespace and D1 database the bindings name exists',
    );
  });

  it('names each cron the worker runs that the environment does not declare, and what stops', () => {
    const reference = unstable_readConfig({ config: WRANGLER_CONFIG, env: 'development' });
    const findings = offlineFindings(
      'staging',
      { ...STAGING, triggers: { crons: [RETENTION_CRON] } },
      reference,
    );
    expect(findings.filter((finding) => finding.check.startsWith('cron'))).toEqual([
      {
        severity: 'error',
        check: `cron ${ALERTS_CRON}`,
        detail:
          'not in [triggers] crons: no guarded ramp moves or rolls back, no alert is sent and no renewal reminder is asked for; add it to this environment in wrangler.toml',
      },
    ]);
    expect(offlineFindings('staging', STAGING, reference)).toContainEqual({
      severity: 'ok',
      check: 'crons',
      detail: 'the 2 the worker runs are declared',
    });
  });

  it('with --remote: names a KV namespace and a D1 database whose ids the account does not hold', async () => {
    const config: Unstable_Config = {
      ...STAGING,
      kv_namespaces: [{ binding: 'FUNNEL_CONFIG', id: '7c1e4f9a2b3d4e5f8a9b0c1d2e3f4a5b' }],
      d1_databases: [
        {
          binding: 'EVENTS_DB',
          database_id: '5b2c9e1d-7a3f-4c6b-9d8e-2f1a0b3c4d5e',
          database_name: 'geofunnel-events',
        },
      ],
    };
    // The account holds other ids (another environment's, say).
    const findings = await resourceFindings(
      'staging',
      config,
      fakeWrangler({ secrets: [], pending: {} }).run,
    );
    expect(findings.filter((finding) => finding.severity === 'error').map((f) => f.check)).toEqual([
      'KV FUNNEL_CONFIG',
      'D1 EVENTS_DB',
    ]);
    expect(findings.map((finding) => finding.detail)).toContain(
      'no database with id 5b2c9e1d-7a3f-4c6b-9d8e-2f1a0b3c4d5e in the account: npx wrangler d1 create geofunnel-events, then put its id in wrangler.toml',
    );
  });

  it('a wrangler that cannot reach the account says so, and how to sign in', async () => {
    const refused = async () => {
      throw Object.assign(new Error('Command failed'), {
        stderr: '✘ [ERROR] Authentication error [code: 10000]\n',
      });
    };
    const saved = process.env.CLOUDFLARE_API_TOKEN;
    delete process.env.CLOUDFLARE_API_TOKEN;
    try {
      const { code, output } = await runDoctor(['--env', 'staging', '--remote'], refused);
      expect(code).toBe(1);
      expect(output).toContain(
        '✗ wrangler: Authentication error [code: 10000] (run npx wrangler login, or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID)',
      );
    } finally {
      if (saved !== undefined) process.env.CLOUDFLARE_API_TOKEN = saved;
    }
  });

  it('a binding the code uses but the environment lacks is an error naming it', () => {
    const reference = unstable_readConfig({ config: WRANGLER_CONFIG, env: 'development' });
    const staging = unstable_readConfig({ config: WRANGLER_CONFIG, env: 'staging' });
    const bindings = staging.durable_objects.bindings;
    const withoutLimiter = {
      ...staging,
      durable_objects: {
        bindings: bindings.filter((each: { name: string }) => each.name !== 'RATE_LIMITER'),
      },
    };
    const findings = offlineFindings('staging', withoutLimiter, reference);
    expect(findings).toContainEqual({
      severity: 'error',
      check: 'binding RATE_LIMITER',
      detail: expect.stringContaining('no Durable Object bound as RATE_LIMITER'),
    });
  });

  it('tells a placeholder id from an account’s', () => {
    expect(isPlaceholderId('00000000-0000-0000-0000-000000000001')).toBe(true);
    expect(isPlaceholderId('11111111111111111111111111111111')).toBe(true);
    expect(isPlaceholderId(undefined)).toBe(true);
    expect(isPlaceholderId('3f2504e0-4f89-41d3-9a0c-0305e82c3301')).toBe(false);
    expect(isPlaceholderId('0f3c6b1a9d2e4c5b8a7f6e5d4c3b2a19')).toBe(false);
  });

  it.each([
    [['--remote'], '--remote needs --env staging or --env production'],
    [['--remote', '--env', 'development'], 'never deployed'],
    [['--env', 'prod'], '--env must be'],
    [['check'], 'doctor takes --env and --remote only'],
  ])('refuses %j', async (argv, error) => {
    const { code, output } = await runDoctor(argv, fakeWrangler({ secrets: [], pending: {} }).run);
    expect(code).toBe(2);
    expect(output).toContain(error);
  });
});
