import { type ParseArgsConfig, parseArgs as parseNodeArgs } from 'node:util';
import { isMiniflareSyncProxyRace } from './miniflare-proxy-race';
import { ENVIRONMENTS, type Environment, isEnvironment } from './wrangler-environment';

/**
 * What every command-line tool here shares (`npm run config`, `translations`, `portal`,
 * `events`): the options they all take, their exit codes, and the one way they answer `--help`,
 * bad arguments and a failure. Kept apart from the KV plumbing (kv-store.ts) so that the tools
 * that read only local D1 do not load it.
 */

export const EXIT_OK = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;

/** Which store a command works on, as `--env`, `--remote` and `--persist-to` say. */
export interface StoreOptions {
  remote: boolean;
  /**
   * wrangler.toml's environment whose bindings are used: development unless `--env` says
   * otherwise, and always named with `--remote`, so a deployed store is never chosen by default.
   */
  environment: Environment;
  /** Local state directory as given; undefined means wrangler dev's default. */
  persistTo?: string;
}

/** The help text of the options `parseStoreArgs` reads, kept beside it so the two agree. */
export const STORE_OPTIONS_USAGE = `Options:
  --env <name>        wrangler.toml's environment: development (the default; npm start's,
                      local only), staging ([env.staging]) or production (the top level)
  --remote            use that environment's deployed KV namespace and database (through
                      wrangler; needs a login and --env staging or --env production)
  --persist-to <dir>  local state directory, as for wrangler dev (default .wrangler/state)
  --help              show this text`;

/** What a tool's argument parser returns: a command of the tool's own type `C` to run. */
export type ParsedArgs<C> =
  | { kind: 'run'; command: C; options: StoreOptions }
  | { kind: 'help' }
  | { kind: 'usage-error'; error: string };

/** The command line split into the store options every tool takes and the tool's own words. */
export type StoreArgs =
  | { kind: 'command'; name: string; rest: string[]; options: StoreOptions }
  | { kind: 'help' }
  | { kind: 'usage-error'; error: string };

/**
 * Parses the options every KV tool shares (`--env`, `--remote`, `--persist-to`, `--help`) and
 * splits off the command name; what the command takes is each tool's to check. Shared so that
 * both tools accept the same flags and reject them with the same messages.
 */
export function parseStoreArgs(argv: readonly string[]): StoreArgs {
  return parseToolArgs(argv, null);
}

/**
 * parseStoreArgs for a tool that reads only `npm start`'s local state (the portal emulator, the
 * event store): `--remote`, and `--env` other than development, are refused with `why`.
 */
export function parseLocalArgs(argv: readonly string[], why: string): StoreArgs {
  return parseToolArgs(argv, why);
}

function parseToolArgs(argv: readonly string[], localOnly: string | null): StoreArgs {
  const parsed = readArgs(argv, {});
  if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const [name, ...rest] = positionals;
  if (name === undefined) return { kind: 'usage-error', error: 'no command given' };
  const remote = values.remote ?? false;
  if (localOnly !== null) {
    if (remote) return { kind: 'usage-error', error: `--remote: ${localOnly}` };
    if (values.env !== undefined && values.env !== 'development') {
      return { kind: 'usage-error', error: `--env ${values.env}: ${localOnly}` };
    }
  }
  if (remote && values['persist-to'] !== undefined) {
    return { kind: 'usage-error', error: '--persist-to is for local KV; drop it with --remote' };
  }
  const environment = parseEnvironment(values.env, remote);
  if (!environment.ok) return { kind: 'usage-error', error: environment.error };
  const options: StoreOptions = {
    remote,
    environment: environment.environment,
    persistTo: values['persist-to'],
  };
  return { kind: 'command', name, rest, options };
}

/**
 * `--env`'s value. A remote command must name its environment: staging and production share
 * every command, so one typed for staging without `--env` must not write production's store.
 */
export function parseEnvironment(
  text: string | undefined,
  remote: boolean,
): { ok: true; environment: Environment } | { ok: false; error: string } {
  if (text === undefined) {
    return remote
      ? { ok: false, error: '--remote needs --env staging or --env production' }
      : { ok: true, environment: 'development' };
  }
  if (!isEnvironment(text)) {
    const names = `${ENVIRONMENTS.slice(0, -1).join(', ')} or ${ENVIRONMENTS.at(-1)}`;
    return { ok: false, error: `--env must be ${names}, not "${text}"` };
  }
  if (remote && text === 'development') {
    return {
      ok: false,
      error: '--env development is never deployed; use --env staging or --env production',
    };
  }
  return { ok: true, environment: text };
}

const WHOLE_NUMBER = /^\d+$/;

/** A count argument from `min` to `max`, or the usage error that explains the range. */
export function parseCount(
  text: string,
  range: { min: number; max: number },
): { ok: true; count: number } | { ok: false; error: string } {
  const count = Number(text);
  if (!WHOLE_NUMBER.test(text) || count < range.min || count > range.max) {
    return {
      ok: false,
      error: `count must be a whole number from ${range.min} to ${range.max}, not "${text}"`,
    };
  }
  return { ok: true, count };
}

/** The options every tool takes (node:util parseArgs); a tool may add its own to them. */
const STORE_ARG_OPTIONS = {
  remote: { type: 'boolean' },
  env: { type: 'string' },
  'persist-to': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A tool's own options, in node:util parseArgs' terms. */
type ToolOptions = NonNullable<ParseArgsConfig['options']>;

type ReadArgs<Options extends ToolOptions> =
  | ({ ok: true } & Pick<
      ReturnType<
        typeof parseNodeArgs<{
          args: string[];
          allowPositionals: true;
          strict: true;
          options: typeof STORE_ARG_OPTIONS & Options;
        }>
      >,
      'values' | 'positionals'
    >)
  | { ok: false; error: string };

/**
 * `argv` read against the store options and a tool's own: its values and words, or the usage
 * error to answer. node:util explains unknown flags at length; its first sentence is the useful
 * part.
 */
export function readArgs<const Options extends ToolOptions>(
  argv: readonly string[],
  options: Options,
): ReadArgs<Options> {
  try {
    const { values, positionals } = parseNodeArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { ...STORE_ARG_OPTIONS, ...options },
    });
    return { ok: true as const, values, positionals };
  } catch (error) {
    return { ok: false as const, error: (error as Error).message.split('. ')[0] ?? '' };
  }
}

/** Prints a failure as the one `error:` line the tools give and returns its exit code. */
export function fail(message: string): number {
  console.error(`error: ${message}`);
  return EXIT_INVALID;
}

/**
 * The entry point both tools share, so that they answer `--help`, bad arguments and a failing
 * KV or wrangler call alike; returns the process's exit code.
 */
export async function runTool<C>(
  argv: readonly string[],
  tool: {
    usage: string;
    parseArgs: (argv: readonly string[]) => ParsedArgs<C>;
    run: (command: C, options: StoreOptions) => Promise<number>;
  },
): Promise<number> {
  const args = tool.parseArgs(argv);
  if (args.kind === 'help') {
    console.log(tool.usage);
    return EXIT_OK;
  }
  if (args.kind === 'usage-error') {
    console.error(`error: ${args.error}\n\n${tool.usage}`);
    return EXIT_USAGE;
  }
  try {
    return await tool.run(args.command, args.options);
  } catch (error) {
    if (isMiniflareSyncProxyRace(error)) {
      // Miniflare's own `false == true` says nothing to an operator.
      return fail(
        'the local platform (Miniflare) lost an answer on a busy machine; read the state again before running this once more',
      );
    }
    // KV or wrangler failed (not logged in, no network, locked state): one line, no stack.
    return fail((error as Error).message);
  }
}

/** A `--url` option's text as an http(s) URL (a worker's origin), or null when it is none. */
export function httpUrlOf(text: string): URL | null {
  const url = URL.canParse(text) ? new URL(text) : null;
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') ? url : null;
}
