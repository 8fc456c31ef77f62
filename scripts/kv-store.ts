import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs as parseNodeArgs, promisify, stripVTControlCharacters } from 'node:util';
import { DEFAULT_PERSIST_TO, openLocalPlatform, PROJECT_ROOT } from './local-platform';

/**
 * The KV plumbing of the command-line tools that edit the FUNNEL_CONFIG namespace
 * (`npm run config`, `npm run translations`): which store the flags name, and reading and
 * writing its keys, locally through wrangler's platform proxy or remotely through the wrangler
 * CLI. Kept in one place so that both tools see the same files as `wrangler dev` and fail with
 * the same messages; what a tool reads or writes stays with the tool.
 */

const KV_BINDING = 'FUNNEL_CONFIG';

export const EXIT_OK = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;

export interface KvStore {
  /** Where the values live, for the messages. */
  label: string;
  read(key: string): Promise<string | null>;
  write(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}

/** Which store a command works on, as `--remote` and `--persist-to` say. */
export interface StoreOptions {
  remote: boolean;
  /** Local state directory as given; undefined means wrangler dev's default. */
  persistTo?: string;
}

// ---------------------------------------------------------------------------------------------
// Arguments

/** The help text of the options `parseStoreArgs` reads, kept beside it so the two agree. */
export const STORE_OPTIONS_USAGE = `Options:
  --remote            use the deployed KV namespace (through wrangler; needs a login)
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
 * Parses the options every KV tool shares (`--remote`, `--persist-to`, `--help`) and splits off
 * the command name; what the command takes is each tool's to check. Shared so that both tools
 * accept the same flags and reject them with the same messages.
 */
export function parseStoreArgs(argv: readonly string[]): StoreArgs {
  let parsed: ReturnType<typeof parseKnownArgs>;
  try {
    parsed = parseKnownArgs(argv);
  } catch (error) {
    // node:util explains unknown flags at length; its first sentence is the useful part.
    return { kind: 'usage-error', error: (error as Error).message.split('. ')[0] ?? '' };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const [name, ...rest] = positionals;
  if (name === undefined) return { kind: 'usage-error', error: 'no command given' };
  if (values.remote && values['persist-to'] !== undefined) {
    return { kind: 'usage-error', error: '--persist-to is for local KV; drop it with --remote' };
  }
  const options: StoreOptions = { remote: values.remote ?? false, persistTo: values['persist-to'] };
  return { kind: 'command', name, rest, options };
}

/**
 * parseStoreArgs for a tool that reads only the local state (the portal emulator, the event
 * store): `--remote` is refused with `why`.
 */
export function parseLocalArgs(argv: readonly string[], why: string): StoreArgs {
  const args = parseStoreArgs(argv);
  if (args.kind === 'command' && args.options.remote) {
    return { kind: 'usage-error', error: `--remote: ${why}` };
  }
  return args;
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

function parseKnownArgs(argv: readonly string[]) {
  return parseNodeArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      remote: { type: 'boolean' },
      'persist-to': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Running a tool

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
    // KV or wrangler failed (not logged in, no network, locked state): one line, no stack.
    return fail((error as Error).message);
  }
}

// ---------------------------------------------------------------------------------------------
// KV adapters

/** Opens the store `options` name, hands it to `use` and closes it whatever `use` does. */
export async function withStore<T>(
  options: StoreOptions,
  use: (store: KvStore) => Promise<T>,
): Promise<T> {
  const store = options.remote
    ? openRemoteStore()
    : await openLocalStore(resolve(options.persistTo ?? DEFAULT_PERSIST_TO));
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function openLocalStore(persistTo: string): Promise<KvStore> {
  const platform = await openLocalPlatform<{ FUNNEL_CONFIG: KVNamespace }>(persistTo);
  const kv = platform.env[KV_BINDING];
  return {
    label: `local KV (${persistTo})`,
    read: (key) => kv.get(key, 'text'),
    write: (key, value) => kv.put(key, value),
    close: () => platform.dispose(),
  };
}

const execFileAsync = promisify(execFile);

function runWrangler(args: readonly string[]) {
  // No shell: the value is passed as one argument, whatever quotes or `$` it contains.
  return execFileAsync('npx', ['wrangler', ...args], {
    cwd: PROJECT_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** The deployed namespace, through `wrangler kv key get|put --remote` (uses wrangler's login). */
function openRemoteStore(): KvStore {
  const target = ['--binding', KV_BINDING, '--remote'];
  return {
    label: `remote KV (binding ${KV_BINDING})`,
    async read(key) {
      try {
        const { stdout } = await runWrangler(['kv', 'key', 'get', key, ...target]);
        return stdout;
      } catch (error) {
        // wrangler 4.86 reports a missing key as a failed fetch with status 404.
        if (/ - 404: /.test(wranglerStderr(error))) return null;
        throw new Error(`wrangler kv key get ${key} failed: ${wranglerMessage(error)}`);
      }
    },
    async write(key, value) {
      try {
        await runWrangler(['kv', 'key', 'put', key, value, ...target]);
      } catch (error) {
        throw new Error(`wrangler kv key put ${key} failed: ${wranglerMessage(error)}`);
      }
    },
    close: async () => {},
  };
}

function wranglerStderr(error: unknown): string {
  return stripVTControlCharacters(String((error as { stderr?: string }).stderr ?? ''));
}

/** wrangler's own error line (`✘ [ERROR] ...`), without npm's warnings around it. */
function wranglerMessage(error: unknown): string {
  const line = wranglerStderr(error)
    .split('\n')
    .find((l) => l.includes('[ERROR]'));
  return (line ?? (error as Error).message).replace(/^.*\[ERROR\]\s*/, '').trim();
}
