import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { CONFIG_KEYS } from '../worker/config/load';
import {
  type CheckedDocument,
  type CliOptions,
  type Command,
  checkDocumentText,
  crossCheck,
  DEFAULTS,
  documentFromKv,
  formatSummary,
  type InEffect,
  inEffectFromKv,
  parseCliArgs,
  type Result,
  SECTIONS,
  type Section,
  type SectionValues,
  USAGE,
} from './config-document';

/**
 * The marketers' config CLI: `npm run config -- get | validate <file> | set <file> | seed`.
 * Everything that decides something lives in `config-document.ts`; this file only reads the
 * file, talks to KV (local through wrangler's platform proxy, remote through the wrangler CLI)
 * and prints.
 */

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WRANGLER_CONFIG = join(PROJECT_ROOT, 'wrangler.toml');
const KV_BINDING = 'FUNNEL_CONFIG';
/** wrangler dev's default `--persist-to`: `.wrangler/state` beside the wrangler config. */
const DEFAULT_PERSIST_TO = join(PROJECT_ROOT, '.wrangler', 'state');

const EXIT_OK = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;

interface ConfigStore {
  /** Where the values live, for the messages. */
  label: string;
  read(key: string): Promise<string | null>;
  write(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// KV adapters

async function openLocalStore(persistTo: string): Promise<ConfigStore> {
  // Loaded on demand: wrangler is a large module and `--help` or a usage error need none of it.
  const { getPlatformProxy } = await import('wrangler');
  const proxy = await getPlatformProxy<{ FUNNEL_CONFIG: KVNamespace }>({
    configPath: WRANGLER_CONFIG,
    // `wrangler dev --persist-to <dir>` keeps its data in <dir>/v3, while getPlatformProxy
    // takes the v3 directory itself; both must name the same files or `npm start` would not
    // see what this CLI writes.
    persist: { path: join(persistTo, 'v3') },
    // The KV binding has no `remote = true`; never reach for the network in local mode.
    remoteBindings: false,
  });
  const kv = proxy.env[KV_BINDING];
  return {
    label: `local KV (${persistTo})`,
    read: (key) => kv.get(key, 'text'),
    write: (key, value) => kv.put(key, value),
    close: () => proxy.dispose(),
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
function openRemoteStore(): ConfigStore {
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

async function withStore<T>(
  options: CliOptions,
  use: (store: ConfigStore) => Promise<T>,
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

async function readAll(store: ConfigStore): Promise<Record<Section, string | null>> {
  const [split, flows] = await Promise.all([
    store.read(CONFIG_KEYS.split),
    store.read(CONFIG_KEYS.flows),
  ]);
  return { split, flows };
}

// ---------------------------------------------------------------------------------------------
// Commands

async function get(options: CliOptions): Promise<number> {
  const { document, notes } = documentFromKv(await withStore(options, readAll));
  for (const note of notes) console.error(note);
  console.log(JSON.stringify(document, null, 2));
  return EXIT_OK;
}

async function readDocumentFile(file: string): Promise<Result<CheckedDocument>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return { ok: false, error: `cannot read ${file}: ${reason}` };
  }
  return checkDocumentText(text);
}

/**
 * The split and flows that will be live once the file is written: the file's sections, the
 * rest from KV. KV is only opened when the file lacks a section.
 */
async function inEffectAfterWrite(
  checked: CheckedDocument,
  store: () => Promise<Record<Section, string | null>>,
): Promise<{ [S in Section]: InEffect<SectionValues[S]> }> {
  const { split, flows } = checked.values;
  const raws = split && flows ? null : await store();
  return {
    split: split ? { value: split, origin: 'file' } : inEffectFromKv('split', raws?.split ?? null),
    flows: flows ? { value: flows, origin: 'file' } : inEffectFromKv('flows', raws?.flows ?? null),
  };
}

/** `validate` and `set` share this: the same checks, the same messages. */
async function checkFile(
  file: string,
  readCurrent: () => Promise<Record<Section, string | null>>,
): Promise<Result<CheckedDocument>> {
  const checked = await readDocumentFile(file);
  if (!checked.ok) return checked;
  const live = await inEffectAfterWrite(checked.value, readCurrent);
  for (const section of SECTIONS) {
    const note = live[section].note;
    if (note) console.error(note);
  }
  const crossed = crossCheck(live.split, live.flows);
  if (!crossed.ok) return crossed;
  console.log(
    formatSummary(checked.value.values, {
      split: live.split.origin,
      flows: live.flows.origin,
    }),
  );
  return checked;
}

async function validate(file: string, options: CliOptions): Promise<number> {
  const checked = await checkFile(file, () => withStore(options, readAll));
  if (!checked.ok) return fail(checked.error);
  return EXIT_OK;
}

async function set(file: string, options: CliOptions): Promise<number> {
  return withStore(options, async (store) => {
    const checked = await checkFile(file, () => readAll(store));
    if (!checked.ok) return fail(`${checked.error}; nothing written`);
    for (const section of SECTIONS) {
      const value = checked.value.serialized[section];
      if (value === undefined) continue;
      await store.write(CONFIG_KEYS[section], value);
      console.log(`wrote ${section} to ${store.label}, key "${CONFIG_KEYS[section]}"`);
    }
    if (options.remote) {
      console.log('Edge locations pick the change up within about a minute (KV caching).');
    }
    return EXIT_OK;
  });
}

/** `npm start` runs this before `wrangler dev`, so a fresh checkout serves SPEC.md's flows. */
async function seed(options: CliOptions): Promise<number> {
  return withStore(options, async (store) => {
    const current = await readAll(store);
    for (const section of SECTIONS) {
      const key = CONFIG_KEYS[section];
      if (current[section] !== null) {
        console.log(`${section}: ${store.label} key "${key}" is set; left alone`);
        continue;
      }
      await store.write(key, JSON.stringify(DEFAULTS[section]));
      console.log(`${section}: wrote the defaults in code to ${store.label} key "${key}"`);
    }
    return EXIT_OK;
  });
}

function fail(message: string): number {
  console.error(`error: ${message}`);
  return EXIT_INVALID;
}

function run(command: Command, options: CliOptions): Promise<number> {
  switch (command.name) {
    case 'get':
      return get(options);
    case 'validate':
      return validate(command.file, options);
    case 'set':
      return set(command.file, options);
    case 'seed':
      return seed(options);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (args.kind === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (args.kind === 'usage-error') {
    console.error(`error: ${args.error}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  try {
    return await run(args.command, args.options);
  } catch (error) {
    // KV or wrangler failed (not logged in, no network, locked state): one line, no stack.
    return fail((error as Error).message);
  }
}

process.exitCode = await main(process.argv.slice(2));
