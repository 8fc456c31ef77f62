import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { malformedSecrets, SECRET_SHAPES } from '../../shared/secret-shapes';
import type { DoctorEnvironment, Finding } from './checks';

/**
 * The doctor's look at the secrets' values, where it can see them: Cloudflare lists a deployed
 * secret's name only, so the values checked are `npm start`'s `.dev.vars` and, for a deployed
 * environment, the file the operator gives `wrangler secret bulk` (`--secrets-file`). Each value
 * is held to its shape in shared/secret-shapes.ts, the table the deployed worker's cron checks
 * its own secrets against; a finding names the secret and the shape, never the value.
 */

/**
 * The files `wrangler dev --env development` (npm start) reads its secrets from, beside
 * wrangler.toml: the environment's own if there is one, else the plain one.
 */
const DEV_VARS_FILES = ['.dev.vars.development', '.dev.vars'];

/** A malformed secret is an error; with none, one line for those checked. */
function shapeFindings(values: Readonly<Record<string, unknown>>, where: string): Finding[] {
  const malformed = malformedSecrets(values);
  if (malformed.length > 0) {
    return malformed.map(({ name, expected }) => ({
      severity: 'error',
      check: `secret ${name}`,
      detail: `in ${where}, not of its shape: expected ${expected}`,
    }));
  }
  const checked = Object.keys(SECRET_SHAPES).filter(
    (name) => typeof values[name] === 'string' && values[name] !== '',
  ).length;
  return checked === 0
    ? []
    : [
        {
          severity: 'ok',
          check: 'secret values',
          detail: `the ${checked} in ${where} are of their shapes`,
        },
      ];
}

/** `npm start`'s secrets, from the first `.dev.vars` file wrangler would read (none: nothing). */
function devVarsFindings(folder: string): Finding[] {
  const name = DEV_VARS_FILES.find((file) => existsSync(join(folder, file)));
  if (name === undefined) return [];
  return shapeFindings(parseEnv(readFileSync(join(folder, name), 'utf8')), name);
}

/**
 * A file as `wrangler secret bulk` reads it: a JSON object of strings, else dotenv's KEY=VALUE
 * lines; or what is wrong with it, naming a key but never a value.
 */
function readSecretsFile(text: string): { values: Record<string, unknown> } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const values = parseEnv(text);
    return Object.keys(values).length > 0
      ? { values }
      : { error: 'neither a JSON object nor KEY=VALUE lines, as wrangler secret bulk reads' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { error: 'JSON, but not an object of names and values' };
  }
  const values = json as Record<string, unknown>;
  const notText = Object.keys(values).find((key) => typeof values[key] !== 'string');
  return notText === undefined
    ? { values }
    : { error: `the value of ${notText} is not a string, which wrangler secret bulk refuses` };
}

/** The values of `--secrets-file`, each against its shape. */
function secretsFileFindings(path: string): Finding[] {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return [{ severity: 'error', check: 'secrets file', detail: `cannot read ${path} (${code})` }];
  }
  const read = readSecretsFile(text);
  if ('error' in read) {
    return [{ severity: 'error', check: 'secrets file', detail: `${path}: ${read.error}` }];
  }
  return shapeFindings(read.values, path);
}

/**
 * What the doctor can tell of the secrets' values in `environment`: `.dev.vars` for
 * development; for a deployed one, the secrets file when given, else (with --remote, whose
 * secret list has names only) that the values went unseen and how to see them.
 */
export function secretValueFindings(
  environment: DoctorEnvironment,
  options: { remote: boolean; secretsFile: string | undefined; devVarsFolder: string },
): Finding[] {
  if (environment === 'development') return devVarsFindings(options.devVarsFolder);
  if (options.secretsFile !== undefined) return secretsFileFindings(options.secretsFile);
  if (!options.remote) return [];
  return [
    {
      severity: 'warning',
      check: 'secret values',
      detail:
        'not seen: Cloudflare gives back names only; add --secrets-file <path> (the file for npx wrangler secret bulk) to check each value is of its shape',
    },
  ];
}
