import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Unstable_Config, unstable_readConfig } from 'wrangler';
import { runDoctor } from '../../scripts/doctor';
import { isPlaceholderId, offlineFindings, resourceFindings } from '../../scripts/doctor/checks';
import { WRANGLER_CONFIG } from '../../scripts/local-platform';
import { SECRET_SHAPES } from '../../shared/secret-shapes';
import { ALERTS_CRON, RETENTION_CRON } from '../../worker/crons';
import { SECRETS } from '../../worker/env';
import { WELL_FORMED } from '../fixtures/secret-values';

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

  it('with --remote: says the secrets’ values went unseen, and how to check them', async () => {
    const { output } = await runDoctor(
      ['--env', 'staging', '--remote'],
      fakeWrangler({ secrets: [...SECRETS], pending: {} }).run,
    );
    expect(output.split('\n').filter((line) => line.includes('secret values'))).toEqual([
      '! secret values: not seen: Cloudflare gives back names only; add --secrets-file <path> (the file for npx wrangler secret bulk) to check each value is of its shape',
    ]);
  });

  it.each([
    [['--remote'], '--remote needs --env staging or --env production'],
    [['--remote', '--env', 'development'], 'never deployed'],
    [['--env', 'prod'], '--env must be'],
    [['check'], 'doctor takes --env, --remote and --secrets-file only'],
    [['--secrets-file', 'secrets.env'], "development's are in .dev.vars"],
  ])('refuses %j', async (argv, error) => {
    const { code, output } = await runDoctor(argv, fakeWrangler({ secrets: [], pending: {} }).run);
    expect(code).toBe(2);
    expect(output).toContain(error);
  });
});

describe('npm run doctor: the secrets’ values', () => {
  let folder = '';
  afterEach(() => rmSync(folder, { recursive: true, force: true }));
  /** A folder of its own holding `files`, by name. */
  const folderWith = (files: Record<string, string>) => {
    folder = mkdtempSync(join(tmpdir(), 'doctor-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
    return folder;
  };
  const short = 'too-short-a-key';
  const publishable = `pk_${'test'}_${'4eC39HqLyjWDarjtT1zdp7dc'}`;

  it('--secrets-file: a malformed value fails, named with its shape, never printed; a missing secret is still named', async () => {
    const file = join(
      folderWith({
        'secrets.env': `STRIPE_FINGERPRINT_KEY=${publishable}\nCOOKIE_SIGNING_KEY=${short}\nGEOCODING_API_KEY=${WELL_FORMED.GEOCODING_API_KEY}\n`,
      }),
      'secrets.env',
    );
    const wrangler = fakeWrangler({
      secrets: SECRETS.filter((name) => name !== 'RESUME_LINK_KEY'),
      pending: {},
    });
    const { code, output } = await runDoctor(
      ['--env', 'staging', '--remote', '--secrets-file', file],
      wrangler.run,
    );
    expect(code).toBe(1);
    expect(output).toContain(
      `✗ secret STRIPE_FINGERPRINT_KEY: in ${file}, not of its shape: expected ${SECRET_SHAPES.STRIPE_FINGERPRINT_KEY.description}`,
    );
    expect(output).toContain(
      `✗ secret COOKIE_SIGNING_KEY: in ${file}, not of its shape: expected at least 32 characters without spaces or line breaks`,
    );
    expect(output).not.toContain('secret GEOCODING_API_KEY');
    expect(output).toContain(
      '✗ secret RESUME_LINK_KEY: not put: npx wrangler secret put RESUME_LINK_KEY --env staging',
    );
    expect(output).not.toContain(publishable);
    expect(output).not.toContain(short);
    expect(output).not.toContain('secret values: not seen');
  });

  it('--secrets-file: a well-formed file, JSON as wrangler secret bulk takes it, adds nothing to fix', async () => {
    const file = join(folderWith({ 'secrets.json': JSON.stringify(WELL_FORMED) }), 'secrets.json');
    const wrangler = fakeWrangler({ secrets: [...SECRETS], pending: {} }).run;
    const checked = await runDoctor(
      ['--env', 'staging', '--remote', '--secrets-file', file],
      wrangler,
    );
    const unchecked = await runDoctor(['--env', 'staging', '--remote'], wrangler);
    expect(checked.output).toContain(
      `✓ secret values: the ${SECRETS.length} in ${file} are of their shapes`,
    );
    // The repository's staging still has its placeholders: no more and no fewer to fix.
    expect(checked.code).toBe(unchecked.code);
    expect(checked.output.split('\n').at(-1)).toBe(unchecked.output.split('\n').at(-1));
    expect(checked.output).not.toContain('✗ secret');
  });

  it('--secrets-file: one wrangler secret bulk would refuse is an error, its value unsaid', async () => {
    const file = join(
      folderWith({ 'secrets.json': JSON.stringify({ ALERTS_HMAC_KEY: 42 }) }),
      'secrets.json',
    );
    const { code, output } = await runDoctor(['--env', 'production', '--secrets-file', file]);
    expect(code).toBe(1);
    expect(output).toContain(
      `✗ secrets file: ${file}: the value of ALERTS_HMAC_KEY is not a string, which wrangler secret bulk refuses`,
    );
    const missing = await runDoctor(['--env', 'production', '--secrets-file', join(folder, 'no')]);
    expect(missing.output).toContain(`✗ secrets file: cannot read ${join(folder, 'no')} (ENOENT)`);
  });

  it('development: a malformed value in .dev.vars fails, the environment’s own file first', async () => {
    const wrangler = fakeWrangler({ secrets: [], pending: {} }).run;
    const devVars = folderWith({
      '.dev.vars': `COOKIE_SIGNING_KEY=${short}\nAMPLITUDE_API_KEY="${WELL_FORMED.AMPLITUDE_API_KEY}"\n`,
    });
    const { code, output } = await runDoctor(['--env', 'development'], wrangler, devVars);
    expect(code).toBe(1);
    expect(output).toContain(
      '✗ secret COOKIE_SIGNING_KEY: in .dev.vars, not of its shape: expected at least 32 characters',
    );
    expect(output).not.toContain(short);
    // wrangler dev --env development reads .dev.vars.development instead, when there is one.
    writeFileSync(
      join(devVars, '.dev.vars.development'),
      `# npm start's\nCOOKIE_SIGNING_KEY=${WELL_FORMED.COOKIE_SIGNING_KEY}\n`,
    );
    const fixed = await runDoctor(['--env', 'development'], wrangler, devVars);
    expect(fixed.output).toContain(
      '✓ secret values: the 1 in .dev.vars.development are of their shapes',
    );
    expect(fixed.code).toBe(0);
  });

  it('development without .dev.vars: nothing to say of the values', async () => {
    const { code, output } = await runDoctor(
      ['--env', 'development'],
      fakeWrangler({ secrets: [], pending: {} }).run,
      folderWith({}),
    );
    expect(code).toBe(0);
    expect(output).not.toContain('secret');
  });
});
