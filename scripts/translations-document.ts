import { basename } from 'node:path';
import { ALL_TRANSLATIONS } from '../locales/all';
import type { CopyDocument } from '../shared/config/copy';
import type { Dictionary } from '../shared/config/translations';
import {
  type ParseResult,
  parseDictionary,
  parseManifest,
  type TranslationManifest,
} from '../shared/config/translations';
import {
  copyProblems,
  type FlatCopy,
  flatOverride,
  isShippedLanguage,
} from '../worker/translations/check';
import {
  parseStoreArgs,
  STORE_OPTIONS_USAGE,
  type StoreOptions,
  type ParsedArgs as StoreParsedArgs,
} from './cli';

/**
 * The pure half of the copy CLI (`npm run translations`): arguments, the checks an override
 * file must pass and what a publish writes. Files, KV and wrangler live in `translations-cli.ts`
 * and `kv-store.ts`; the store options both KV tools take are parsed in `cli.ts`.
 */

export type Result<T> = ParseResult<T>;

export const USAGE = `Usage: npm run translations -- <command> [options]

Copy in KV overrides the bundled locales/ files without a deploy. An override file is named
after its language (es.json, pt.json) and holds some or all keys, nested by area
({"landing": {"phone": {"locate": "Buscar"}}}) or dotted ({"landing.phone.locate": "Buscar"});
keys it lacks keep the bundled text. Find a key by its English text in the console's Copy area
(/console/copy), which publishes to the same store and lists every CLI publish in its History.

Commands:
  get                 print the manifest in KV, the copy version it is, and the number of keys
                      each language overrides
  validate <file>...  check override files without writing
  publish <file>...   check, then store them as the next copy version under a new timestamp
                      (other languages' overrides in effect are carried over) and point the
                      manifest at it
  remove <lang>...    publish without these languages' overrides (back to the bundled text)

Example:
  echo '{"landing.phone.locate": "Buscar"}' > es.json
  npm run translations -- validate es.json
  npm run translations -- publish es.json
  npm run translations -- remove es

${STORE_OPTIONS_USAGE}`;

export type Command =
  | { name: 'get' }
  | { name: 'validate'; files: string[] }
  | { name: 'publish'; files: string[] }
  | { name: 'remove'; languages: string[] };

export type CliOptions = StoreOptions;

export type ParsedArgs = StoreParsedArgs<Command>;

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const args = parseStoreArgs(argv);
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  if (name === 'get') {
    if (rest.length > 0) return { kind: 'usage-error', error: 'get takes no arguments' };
    return { kind: 'run', command: { name }, options };
  }
  if (name === 'validate' || name === 'publish') {
    if (rest.length === 0) return { kind: 'usage-error', error: `${name} takes override files` };
    return { kind: 'run', command: { name, files: rest }, options };
  }
  if (name === 'remove') {
    if (rest.length === 0) return { kind: 'usage-error', error: 'remove takes language codes' };
    return { kind: 'run', command: { name, languages: rest }, options };
  }
  return { kind: 'usage-error', error: `unknown command "${name}"` };
}

// ---------------------------------------------------------------------------------------------
// Checks

/** `es.json` → `es`. */
export function languageOfFile(file: string): string {
  return basename(file).replace(/\.json$/i, '');
}

export interface CheckedOverride {
  language: string;
  dictionary: Dictionary;
  /** The same as flat dotted keys, as the console and the copy history hold it. */
  copy: FlatCopy;
  keys: number;
}

/**
 * An override file must parse as the worker would read it, be for a shipped language, name
 * only keys English has, and keep each text's interpolation variables ({{count}}, {{price}}):
 * a typo in a key would never show, and a lost variable would show a sentence without its
 * number.
 */
export function checkOverride(language: string, text: string): Result<CheckedOverride> {
  if (!isShippedLanguage(language)) {
    const shipped = Object.keys(ALL_TRANSLATIONS).join(', ');
    return { ok: false, error: `${language}: not a shipped language (${shipped})` };
  }
  const parsed = parseDictionary(text);
  if (!parsed.ok) return { ok: false, error: `${language}: ${parsed.error}` };
  const copy = flatOverride(parsed.value);
  const problems = copyProblems(language, copy).map(({ key, message }) => `${key}: ${message}`);
  if (problems.length) {
    return { ok: false, error: `${language}: ${problems.slice(0, 10).join('; ')}` };
  }
  const keys = Object.keys(copy).length;
  return { ok: true, value: { language, dictionary: parsed.value, keys, copy } };
}

// ---------------------------------------------------------------------------------------------
// Publishing

/**
 * The overrides in effect after a publish of the CLI: the files given replace their languages,
 * the removed languages go, and every other language's override in effect is carried over.
 */
export function nextCopy(options: {
  current: CopyDocument;
  files: readonly CheckedOverride[];
  remove: readonly string[];
}): CopyDocument {
  const { current, files, remove } = options;
  const next: CopyDocument = {};
  for (const [language, texts] of Object.entries(current)) {
    if (!remove.includes(language)) next[language] = texts;
  }
  for (const file of files) next[file.language] = file.copy;
  return next;
}

/** The manifest in KV, or null when none is stored; an invalid one is an error to fix first. */
export function manifestFromKv(raw: string | null): Result<TranslationManifest | null> {
  if (raw === null) return { ok: true, value: null };
  const parsed = parseManifest(raw);
  return parsed.ok
    ? parsed
    : { ok: false, error: `the manifest in KV is invalid (${parsed.error})` };
}
