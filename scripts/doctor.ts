import { unstable_readConfig } from 'wrangler';
import { parseEnvironment, readArgs } from './cli';
import {
  type DoctorEnvironment,
  type Finding,
  formatFindings,
  migrationFindings,
  offlineFindings,
  resourceFindings,
  secretFindings,
  wranglerEnvOf,
} from './doctor/checks';
import { secretValueFindings } from './doctor/secret-values';
import { PROJECT_ROOT, WRANGLER_CONFIG } from './local-platform';
import { runWrangler, type WranglerRunner, wranglerMessage } from './wrangler-cli';

export const DOCTOR_USAGE = `Usage: npm run doctor -- --env <name> [--remote] [--secrets-file <path>]

Whether an environment is ready for traffic (docs/operate.md, "Before the first visitor"):
every binding the code uses declared in wrangler.toml with a real resource (not the repository's
placeholder ids), and the settings a deployed worker needs (PORTAL_URL, the console's Access);
with --remote, every bucket, queue, KV namespace and D1 database the bindings name existing,
every secret put and every D1 migration applied, through wrangler's login. Cloudflare never
gives a secret's value back: --secrets-file checks each value in the file you put them from is
of its secret's shape (a Stripe restricted key, a Google key, a long signing key...). For
development, whether npm start's local databases are migrated and the secrets in .dev.vars are
of their shapes. Exits 1 when something must be fixed; a warning (an optional secret, Google's
placeholder client id) does not fail it.

Options:
  --env <name>           development (the default), staging or production (the top level)
  --remote               also ask Cloudflare (needs \`npx wrangler login\` and --env
                         staging|production)
  --secrets-file <path>  staging or production: the file for \`npx wrangler secret bulk\` (JSON
                         or KEY=VALUE lines), each value checked, never printed
  --help                 show this text`;

/**
 * How wrangler reaches the account: the operator's `npx wrangler login`, or in CI an API token
 * (docs/operate.md, "Deploying from CI"), said when a call failed.
 */
function signInHint(): string {
  if (!process.env.CLOUDFLARE_API_TOKEN) {
    return ' (run npx wrangler login, or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID)';
  }
  return process.env.CLOUDFLARE_ACCOUNT_ID
    ? ' (wrangler used CLOUDFLARE_API_TOKEN: check its permissions)'
    : ' (CLOUDFLARE_API_TOKEN is set without CLOUDFLARE_ACCOUNT_ID: set it too)';
}

/**
 * The doctor's findings for `argv`, and its exit code: 0 ready, 1 something to fix, 2 usage.
 * `devVarsFolder` holds npm start's `.dev.vars` (beside wrangler.toml).
 */
export async function runDoctor(
  argv: readonly string[],
  wrangler: WranglerRunner = runWrangler,
  devVarsFolder: string = PROJECT_ROOT,
): Promise<{ code: number; output: string }> {
  const parsed = readArgs(argv, { 'secrets-file': { type: 'string' } });
  const usage = (error: string) => ({ code: 2, output: `error: ${error}\n\n${DOCTOR_USAGE}` });
  if (!parsed.ok) return usage(parsed.error);
  if (parsed.values.help) return { code: 0, output: DOCTOR_USAGE };
  if (parsed.positionals.length > 0 || parsed.values['persist-to'] !== undefined) {
    return usage('doctor takes --env, --remote and --secrets-file only');
  }
  const remote = parsed.values.remote ?? false;
  const environment = parseEnvironment(parsed.values.env, remote);
  if (!environment.ok) return usage(environment.error);
  const name = environment.environment as DoctorEnvironment;
  const secretsFile = parsed.values['secrets-file'];
  if (secretsFile !== undefined && name === 'development') {
    return usage("--secrets-file is for staging or production; development's are in .dev.vars");
  }
  const config = unstable_readConfig({
    config: WRANGLER_CONFIG,
    env: wranglerEnvOf(name) || undefined,
  });
  const reference = unstable_readConfig({ config: WRANGLER_CONFIG, env: 'development' });
  const findings: Finding[] = [
    ...offlineFindings(name, config, reference),
    ...secretValueFindings(name, { remote, secretsFile, devVarsFolder }),
  ];
  try {
    if (remote) {
      findings.push(...(await resourceFindings(name, config, wrangler)));
      findings.push(...(await secretFindings(name, wrangler)));
    }
    if (remote || name === 'development') {
      findings.push(...(await migrationFindings(name, config, wrangler)));
    }
  } catch (error) {
    findings.push({
      severity: 'error',
      check: 'wrangler',
      detail: `${wranglerMessage(error)}${signInHint()}`,
    });
  }
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const verdict =
    errors === 0
      ? `${name} is ready${remote || name === 'development' ? '' : ' as far as wrangler.toml tells (add --remote for its secrets and migrations)'}.`
      : `${name}: ${errors} to fix before traffic.`;
  return { code: errors === 0 ? 0 : 1, output: `${formatFindings(findings)}\n${verdict}` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { code, output } = await runDoctor(process.argv.slice(2));
  console.log(output);
  process.exitCode = code;
}
