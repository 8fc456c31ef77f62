import { readFile } from 'node:fs/promises';
import {
  type CheckedDocument,
  checkDocumentText,
  crossCheck,
  DEFAULTS,
  type InEffect,
  inEffectFromKv,
  type Result,
  SECTIONS,
  type Section,
  type SectionValues,
} from '../worker/config/document';
import { CONFIG_KEYS } from '../worker/config/load';
import { EXIT_OK, fail, runTool } from './cli';
import {
  type CliOptions,
  type Command,
  documentFromKv,
  formatSummary,
  parseCliArgs,
  USAGE,
} from './config-document';
import { type KvStore, withStore } from './kv-store';

/**
 * The marketers' config CLI: `npm run config -- get | validate <file> | set <file> | seed`
 * (scripts/config.ts is its entry).
 * Everything that decides something lives in `config-document.ts`; this file only reads the
 * file, talks to KV (local through wrangler's platform proxy, remote through the wrangler CLI;
 * both in `kv-store.ts`) and prints.
 */

// ---------------------------------------------------------------------------------------------
// KV

async function readAll(store: KvStore): Promise<Record<Section, string | null>> {
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

/**
 * The CLI on `argv` (the words after `npm run config --`): prints as the tool does and returns
 * its exit code. scripts/config.ts runs it as a process; tests call it in-process.
 */
export function runConfigCli(argv: readonly string[]): Promise<number> {
  return runTool(argv, { usage: USAGE, parseArgs: parseCliArgs, run });
}
