import { oneOf } from '../shared/one-of';
/**
 * The wrangler.toml environments the command-line tools work on (`--env`), and how each is named
 * to wrangler: development is `[env.development]` (`npm start`'s, local only: never deployed),
 * staging is `[env.staging]`, and production is the top level, which wrangler's CLI names
 * `--env ''` (as package.json's `deploy` does) and its platform proxy no environment at all.
 */

export const ENVIRONMENTS = ['development', 'staging', 'production'] as const;

export type Environment = (typeof ENVIRONMENTS)[number];

export const isEnvironment = oneOf(ENVIRONMENTS);

/** wrangler's `--env` argument for the environment: the top level is `''`. */
export function wranglerEnvArgs(environment: Environment): string[] {
  return ['--env', environment === 'production' ? '' : environment];
}

/** getPlatformProxy's `environment` option: undefined reads the top level. */
export function proxyEnvironment(environment: Environment): string | undefined {
  return environment === 'production' ? undefined : environment;
}
