import { basename } from 'node:path';
import { BUNDLED_TRANSLATIONS, type Dictionary, EN } from '../locales';
import { overlayDictionary } from '../worker/translations/merge';
import {
  type ParseResult,
  parseDictionary,
  parseManifest,
  type TranslationManifest,
} from '../worker/translations/schema';
import { TRANSLATION_KEYS } from '../worker/translations/source';
import {
  parseStoreArgs,
  STORE_OPTIONS_USAGE,
  type StoreOptions,
  type ParsedArgs as StoreParsedArgs,
} from './cli';

/**
 * The pure half of the copy CLI (`npm run translations`): arguments, the checks an override
 * file must pass and what a publish writes. Files, KV and wrangler live in `translations.ts`
 * and `kv-store.ts`; the store options both KV tools take are parsed in `cli.ts`.
 */

export type Result<T> = ParseResult<T>;

export const USAGE = `Usage: npm run translations -- <command> [options]

Copy in KV overrides the bundled locales/ files without a deploy. An override file is named
after its language (es.json, pt.json) and holds some or all keys, nested by area
({"landing": {"title": "…"}}) or dotted ({"landing.title": "…"}); keys it lacks keep the
bundled text.

Commands:
  get                 print the manifest in KV and the number of keys each language overrides
  validate <file>...  check override files without writing
  publish <file>...   check, then store them under a new timestamp (other languages' overrides
                      in effect are carried over) and point the manifest at it
  remove <lang>...    publish without these languages' overrides (back to the bundled text)

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

function flatten(dictionary: Dictionary, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(dictionary)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [k, v] of flatten(value, path)) entries.set(k, v);
  }
  return entries;
}

function variables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!))].sort();
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const english = flatten(EN);

/** The English text a key of `language` translates; for a plural form, English's `_other`. */
function englishSource(language: string, key: string): string | undefined {
  if (english.has(key) && !PLURAL.test(key)) return english.get(key);
  const category = key.match(PLURAL)?.[1];
  if (!category) return undefined;
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  if (!(categories as readonly string[]).includes(category)) return undefined;
  return english.get(key.replace(PLURAL, '_other'));
}

export interface CheckedOverride {
  language: string;
  dictionary: Dictionary;
  keys: number;
}

/**
 * An override file must parse as the worker would read it, be for a shipped language, name
 * only keys English has, and keep each text's interpolation variables ({{count}}, {{price}}):
 * a typo in a key would never show, and a lost variable would show a sentence without its
 * number.
 */
export function checkOverride(language: string, text: string): Result<CheckedOverride> {
  if (!Object.hasOwn(BUNDLED_TRANSLATIONS, language)) {
    const shipped = Object.keys(BUNDLED_TRANSLATIONS).join(', ');
    return { ok: false, error: `${language}: not a shipped language (${shipped})` };
  }
  const parsed = parseDictionary(text);
  if (!parsed.ok) return { ok: false, error: `${language}: ${parsed.error}` };
  // Laid over nothing, dotted keys land where nested ones would, as in the worker.
  const entries = flatten(overlayDictionary({}, parsed.value));
  const problems: string[] = [];
  for (const [key, value] of entries) {
    const source = englishSource(language, key);
    if (source === undefined) {
      problems.push(`${key}: no such key in the English files`);
      continue;
    }
    const want = variables(source);
    const have = variables(value);
    const missing = want.filter((v) => !have.includes(v) && !(PLURAL.test(key) && v === 'count'));
    const unknown = have.filter((v) => !want.includes(v));
    if (missing.length) problems.push(`${key}: lacks {{${missing.join('}}, {{')}}}`);
    if (unknown.length) problems.push(`${key}: unknown {{${unknown.join('}}, {{')}}}`);
  }
  if (problems.length) {
    return { ok: false, error: `${language}: ${problems.slice(0, 10).join('; ')}` };
  }
  return { ok: true, value: { language, dictionary: parsed.value, keys: entries.size } };
}

// ---------------------------------------------------------------------------------------------
// Publishing

export interface PublishPlan {
  manifest: TranslationManifest;
  /** Written first, so the manifest never names a key that is not stored yet. */
  writes: { key: string; language: string; from: 'file' | 'carried over' }[];
}

/**
 * A publish stores every override in effect under one new timestamp: the files given, and the
 * languages of the current manifest that are neither given nor removed (copied forward). The
 * timestamp is the current time in seconds, past the current one if the clock is behind.
 */
export function planPublish(options: {
  current: TranslationManifest | null;
  files: readonly string[];
  remove: readonly string[];
  nowSeconds: number;
}): PublishPlan {
  const { current, files, remove, nowSeconds } = options;
  const timestamp = Math.max(Math.floor(nowSeconds), (current?.timestamp ?? 0) + 1);
  const carried = (current?.languages ?? []).filter(
    (language) => !files.includes(language) && !remove.includes(language),
  );
  const writes = [
    ...files.map((language) => ({ language, from: 'file' as const })),
    ...carried.map((language) => ({ language, from: 'carried over' as const })),
  ].map((w) => ({ ...w, key: TRANSLATION_KEYS.dictionary(w.language, timestamp) }));
  return { manifest: { timestamp, languages: writes.map((w) => w.language).sort() }, writes };
}

/** The manifest in KV, or null when none is stored; an invalid one is an error to fix first. */
export function manifestFromKv(raw: string | null): Result<TranslationManifest | null> {
  if (raw === null) return { ok: true, value: null };
  const parsed = parseManifest(raw);
  return parsed.ok
    ? parsed
    : { ok: false, error: `the manifest in KV is invalid (${parsed.error})` };
}
