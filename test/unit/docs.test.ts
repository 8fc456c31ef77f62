import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { experimental_readRawConfig, unstable_readConfig } from 'wrangler';
import { SECRETS } from '../../worker/env';
import {
  checkDeployDocs,
  type DeployedEnvironment,
  deployedEnvironment,
  secretsByComment,
} from './deploy-docs-check';
import {
  bindingNames,
  checkPage,
  documentationPages,
  headingAnchor,
  readProjectFacts,
} from './docs-check';

/**
 * README.md and docs/ cannot rot quietly: every relative link lands on a file (and a heading),
 * every `npm run` names a script of package.json, and every environment name is the project's
 * (the rule is in docs-check.ts). The broken fixture proves each kind of rot is caught.
 */

const ROOT = process.cwd();
const facts = readProjectFacts(ROOT);

describe('the documentation', () => {
  it.each(documentationPages(ROOT).map((file) => [relative(ROOT, file), file]))(
    '%s: links, scripts and environment names all exist',
    (_, file) => {
      expect(checkPage(file, facts, ROOT)).toEqual([]);
    },
  );

  it('links every page of docs/ from the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const unlinked = documentationPages(ROOT)
      .map((file) => relative(ROOT, file))
      .filter((page) => page !== 'README.md' && !readme.includes(`](${page}`));
    expect(unlinked).toEqual([]);
  });

  it('opens every page of docs/ with who it is for, in italics under the title', () => {
    const without = documentationPages(ROOT)
      .filter((file) => !file.endsWith('README.md'))
      .filter((file) => !/^# .+\n\n\*For /.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(without).toEqual([]);
  });
});

describe('the check itself', () => {
  it('finds each kind of rot in a broken page, and nothing else', () => {
    const broken = join(ROOT, 'test/fixtures/docs/broken.md');
    expect(checkPage(broken, facts, ROOT).sort()).toEqual(
      [
        'test/fixtures/docs/broken.md: link to renamed.md: no such file',
        'test/fixtures/docs/broken.md: link to target.md#a-heading-that-is-gone: no heading with that anchor',
        'test/fixtures/docs/broken.md: link to #gone: no heading with that anchor',
        'test/fixtures/docs/broken.md: npm run deploy:everywhere: package.json has no such script',
        'test/fixtures/docs/broken.md: npm run formatting: package.json has no such script',
        'test/fixtures/docs/broken.md: PORTAL_ADDRESS: no such environment variable, binding or secret',
        'test/fixtures/docs/broken.md: OLD_SIGNING_KEY: no such environment variable, binding or secret',
      ].sort(),
    );
  });

  it("reads the project's names from wrangler.toml, worker/env.ts and the tools", () => {
    // wrangler.toml [vars], a binding, a property of an interface Bindings extends, a secret of
    // Bindings, and a variable a script reads.
    for (const name of [
      'ENVIRONMENT',
      'EXPERIMENT_SHARDS',
      'CONSENT_COUNTRIES',
      'LIFECYCLE_HMAC_KEY',
      'CHROME_PATH',
    ])
      expect(facts.environment, name).toContain(name);
    expect(facts.environment).not.toContain('API_CALLS');
    expect(facts.scripts).toContain('docs:screenshots');
  });

  it("makes a heading's anchor as GitHub does", () => {
    expect(headingAnchor("The product API's answers, field by field")).toBe(
      'the-product-apis-answers-field-by-field',
    );
    expect(
      headingAnchor(
        'Renewals, refunds, chargebacks and cancellations: `POST /hooks/subscription-events`',
      ),
    ).toBe('renewals-refunds-chargebacks-and-cancellations-post-hookssubscription-events');
    expect(headingAnchor('Data: what a visitor costs each store (`npm run bench -- data`)')).toBe(
      'data-what-a-visitor-costs-each-store-npm-run-bench----data',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// docs/operate.md's deploy steps against wrangler.toml (as wrangler itself reads each
// environment) and the worker's list of secrets.

const WRANGLER_TOML = join(ROOT, 'wrangler.toml');
const OPERATE = readFileSync(join(ROOT, 'docs/operate.md'), 'utf8');

function deployed(): DeployedEnvironment[] {
  return [
    deployedEnvironment('production', unstable_readConfig({ config: WRANGLER_TOML })),
    deployedEnvironment('staging', unstable_readConfig({ config: WRANGLER_TOML, env: 'staging' })),
  ];
}

describe("operate.md's deploy steps", () => {
  const environments = deployed();
  const bindings = new Set(bindingNames(ROOT));

  it('list every binding, migration and secret of production and staging, in order, and nothing else', () => {
    expect(checkDeployDocs(OPERATE, environments, SECRETS, bindings)).toEqual([]);
  });

  it("take the secrets from the worker's own list, which is every binding its comment calls a secret", () => {
    const envSource = readFileSync(join(ROOT, 'worker/env.ts'), 'utf8');
    expect([...SECRETS].sort()).toEqual(secretsByComment(envSource).sort());
    expect(SECRETS).toContain('STRIPE_FINGERPRINT_KEY');
  });

  it("bind nothing in wrangler.toml that the worker's Bindings type lacks", () => {
    const bound = environments.flatMap((environment) => [...environment.bindings.keys()]);
    expect(bound.filter((name) => !bindings.has(name))).toEqual([]);
  });

  it("keep every named environment off production's routes, which it would inherit", () => {
    const { rawConfig } = experimental_readRawConfig({ config: WRANGLER_TOML });
    const named = Object.entries(rawConfig.env ?? {}) as [string, { routes?: unknown }][];
    expect(named.map(([name]) => name).sort()).toEqual(['development', 'staging']);
    for (const [name, environment] of named)
      expect(environment.routes, `[env.${name}] routes`).toBeDefined();
  });

  it('find each kind of gap between the steps and the code', () => {
    const staging = /### Staging\n[\s\S]*?```\n/.exec(OPERATE)?.[0] ?? '';
    const broken = OPERATE.replace(
      staging,
      staging
        .replace(/^npx wrangler secret put GEOCODING_API_KEY --env staging\n/m, '')
        .replace('npx wrangler d1 migrations apply EVENTS_DB --remote --env staging\n', '')
        .replace(
          'npx wrangler d1 create geofunnel-config-staging',
          'npx wrangler d1 create geofunnel-config',
        )
        .replace(
          '--expire-days 30\n',
          '--expire-days 30\nnpx wrangler secret put OLD_KEY --env staging\n',
        )
        .replace(
          'npm run config -- seed --remote --env staging',
          'npm run config -- seed --remote --env production',
        )
        .replace(
          /^(npx wrangler queues create geofunnel-events-staging-dlq\n)([\s\S]*?)^(npm run deploy:staging\n)/m,
          '$3$2$1',
        ),
    )
      .replace('| `ASSETS` |', '| `ASSET` |')
      .replace('v3 `SubscriptionLedger`', 'v3 `Ledger`')
      .replace(
        "| `CONFIG_DB` | D1 database: the config's version history (`worker/config/migrations`) | `geofunnel-config` |",
        '| `CONFIG_DB` | D1 database | `geofunnel-configs` |',
      )
      .replace('| `ALERTS_HMAC_KEY` | secret |', '| `ALERTS_HMAC_KEY` | variable |');
    expect(broken).not.toBe(OPERATE);
    expect(checkDeployDocs(broken, environments, SECRETS, bindings).sort()).toEqual(
      [
        'the bindings table lists ASSET, which Bindings (worker/env.ts) lacks',
        'production: ASSETS is bound in wrangler.toml, not in the bindings table',
        'production: the bindings table lists ASSET, which wrangler.toml does not bind',
        'production: the bindings table says CONFIG_DB is geofunnel-configs; wrangler.toml: geofunnel-config',
        'staging: ASSETS is bound in wrangler.toml, not in the bindings table',
        'staging: the bindings table lists ASSET, which wrangler.toml does not bind',
        'staging: no `npx wrangler d1 create geofunnel-config-staging`',
        'staging: `npx wrangler d1 create geofunnel-config` names geofunnel-config, which it does not have',
        'staging: no `npx wrangler d1 migrations apply EVENTS_DB --remote --env staging`',
        'staging: no `npx wrangler secret put GEOCODING_API_KEY --env staging`',
        'staging: `npx wrangler secret put OLD_KEY --env staging` names OLD_KEY, which it does not have',
        'staging: no `npm run config -- seed --remote --env staging`',
        'staging: `npm run config -- seed --remote --env production` is for --env production',
        'staging: the creates must come before the migrations',
        'staging: the secrets must come before the deploy',
        'Settings: ALERTS_HMAC_KEY is not in the table as a secret',
        "production: the deploy's class migration v3 SubscriptionLedger is not named",
        "staging: the deploy's class migration v3 SubscriptionLedger is not named",
      ].sort(),
    );
  });
});
