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
import { WRANGLER_CONFIG } from './local-platform';
import { runWrangler, type WranglerRunner, wranglerMessage } from './wrangler-cli';

export const DOCTOR_USAGE = `Usage: npm run doctor -- --env <name> [--remote]

Whether an environment is ready for traffic (docs/operate.md, "Before the first visitor"):
every binding the code uses declared in wrangler.toml with a real resource (not the repository's
placeholder ids), and the settings a deployed worker needs (PORTAL_URL, the console's Access);
with --remote, every bucket, queue, KV namespace and D1 database the bindings name existing,
every secret put and every D1 migration applied, through wrangler's login. For
development, whether npm start's local databases are migrated. Exits 1 when something must be
fixed; a warning (an optional secret, Google's placeholder client id) does not fail it.

Options:
  --env <name>   development (the default), staging or production (the top level)
  --remote       also ask Cloudflare (needs \`npx wrangler login\` and --env staging|production)
  --help         show this text`;

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

/** The doctor's findings for `argv`, and its exit code: 0 ready, 1 something to fix, 2 usage. */
export async function runDoctor(
  argv: readonly string[],
  wrangler: WranglerRunner = runWrangler,
): Promise<{ code: number; output: string }> {
  const parsed = readArgs(argv, {});
  if (!parsed.ok) return { code: 2, output: `error: ${parsed.error}\n\n${DOCTOR_USAGE}` };
  if (parsed.values.help) return { code: 0, output: DOCTOR_USAGE };
  if (parsed.positionals.length > 0 || parsed.values['persist-to'] !== undefined) {
    return { code: 2, output: `error: doctor takes --env and --remote only\n\n${DOCTOR_USAGE}` };
  }
  const remote = parsed.values.remote ?? false;
  const environment = parseEnvironment(parsed.values.env, remote);
  if (!environment.ok) return { code: 2, output: `error: ${environment.error}\n\n${DOCTOR_USAGE}` };
  const name = environment.environment as DoctorEnvironment;
  const config = unstable_readConfig({
    config: WRANGLER_CONFIG,
    env: wranglerEnvOf(name) || undefined,
  });
  const reference = unstable_readConfig({ config: WRANGLER_CONFIG, env: 'development' });
  const findings: Finding[] = offlineFindings(name, config, reference);
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
