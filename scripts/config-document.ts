import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../worker/config/defaults';
import { CONFIG_KEYS } from '../worker/config/load';
import {
  CONFIG_MAX_BYTES,
  type FlowsConfig,
  type ParseResult,
  parseFlows,
  parseSplit,
  type SplitConfig,
} from '../worker/config/schema';
import { flowNameOf } from '../worker/funnel/flow';
import {
  parseStoreArgs,
  STORE_OPTIONS_USAGE,
  type StoreOptions,
  type ParsedArgs as StoreParsedArgs,
} from './cli';

/**
 * The pure half of the marketers' config CLI (`npm run config`): arguments, the document a
 * marketer edits (`{ "split": ..., "flows": ... }`), its validation and the summaries printed.
 * Files, KV and wrangler live in `config.ts` and `kv-store.ts`; the store options both KV tools
 * take are parsed in `cli.ts`.
 */

export type Section = keyof typeof CONFIG_KEYS;

/** Flows before split: `set` writes in this order so a new variant never points at a flow
 * that is not stored yet (the worker would send its visitors to 'default' meanwhile). */
export const SECTIONS: readonly Section[] = ['flows', 'split'];

export interface SectionValues {
  split: SplitConfig;
  flows: FlowsConfig;
}

export const DEFAULTS: SectionValues = { split: DEFAULT_SPLIT, flows: DEFAULT_FLOWS };

const PARSERS: { [S in Section]: (raw: unknown) => ParseResult<SectionValues[S]> } = {
  split: parseSplit,
  flows: parseFlows,
};

export type Result<T> = ParseResult<T>;

// ---------------------------------------------------------------------------------------------
// Arguments

export const USAGE = `Usage: npm run config -- <command> [options]

Commands:
  get               print the config in KV as one JSON document {"split": ..., "flows": ...}
  validate <file>   check a JSON file of that shape ("split" and/or "flows") without writing
  set <file>        validate the file, then write its sections to KV
  seed              write the defaults in code to each KV key that is absent

${STORE_OPTIONS_USAGE}`;

export type Command =
  | { name: 'get' }
  | { name: 'seed' }
  | { name: 'validate'; file: string }
  | { name: 'set'; file: string };

export type CliOptions = StoreOptions;

export type ParsedArgs = StoreParsedArgs<Command>;

const COMMANDS_WITH_FILE = new Set(['validate', 'set']);
const COMMANDS_WITHOUT_FILE = new Set(['get', 'seed']);

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const args = parseStoreArgs(argv);
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  if (COMMANDS_WITHOUT_FILE.has(name)) {
    if (rest.length > 0) return { kind: 'usage-error', error: `${name} takes no file` };
    return { kind: 'run', command: { name: name as 'get' | 'seed' }, options };
  }
  if (COMMANDS_WITH_FILE.has(name)) {
    const [file, ...extra] = rest;
    if (file === undefined || extra.length > 0) {
      return { kind: 'usage-error', error: `${name} takes exactly one file` };
    }
    return { kind: 'run', command: { name: name as 'validate' | 'set', file }, options };
  }
  return { kind: 'usage-error', error: `unknown command "${name}"` };
}

// ---------------------------------------------------------------------------------------------
// The document a marketer edits

export type DocumentSections = Partial<SectionValues>;

export interface CheckedDocument {
  values: DocumentSections;
  /** Each present section as the exact string `set` writes and the worker will parse. */
  serialized: Partial<Record<Section, string>>;
}

/** Schema checks of a file's text: size, JSON, top-level shape, then each section. */
export function checkDocumentText(text: string): Result<CheckedDocument> {
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > CONFIG_MAX_BYTES) {
    return { ok: false, error: `file is ${bytes} bytes; the limit is ${CONFIG_MAX_BYTES} bytes` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, error: 'the file must hold a JSON object with "split" and/or "flows"' };
  }
  const unknownKey = Object.keys(raw).find((key) => !Object.hasOwn(CONFIG_KEYS, key));
  if (unknownKey !== undefined) {
    return {
      ok: false,
      error: `unknown top-level key "${unknownKey}" (expected "split" and/or "flows")`,
    };
  }
  const present = SECTIONS.filter((section) => Object.hasOwn(raw, section));
  if (present.length === 0) {
    return { ok: false, error: 'the file has neither "split" nor "flows"; nothing to check' };
  }
  return checkSections(raw as Record<Section, unknown>, present);
}

function checkSections(
  raw: Record<Section, unknown>,
  present: readonly Section[],
): Result<CheckedDocument> {
  const checked: CheckedDocument = { values: {}, serialized: {} };
  const errors: string[] = [];
  for (const section of present) {
    // The value as read gives the clearest messages (1e400 is "not finite", not "null");
    // the string that will be stored must then pass the worker's own check, size cap included.
    const serialized = JSON.stringify(raw[section]);
    const asRead = PARSERS[section](raw[section]);
    const result = asRead.ok ? PARSERS[section](serialized) : asRead;
    if (result.ok) {
      (checked.values as Record<Section, unknown>)[section] = result.value;
      checked.serialized[section] = serialized;
    } else {
      errors.push(`${section}: ${result.error}`);
    }
  }
  return errors.length > 0 ? { ok: false, error: errors.join('; ') } : { ok: true, value: checked };
}

// ---------------------------------------------------------------------------------------------
// What is in effect, and the cross-check between split and flows

/** Where a section comes from when a file is checked: the file, KV, or the defaults in code. */
export type Origin = 'file' | 'kv' | 'defaults';

export interface InEffect<T> {
  value: T;
  origin: Origin;
  /** Said on stderr: why KV's value was not used. */
  note?: string;
}

/**
 * The value the worker reads for a KV key. An absent or invalid value makes the worker use
 * its last good copy, else the defaults in code; the CLI cannot see the former, so the
 * defaults stand in.
 */
export function inEffectFromKv<S extends Section>(
  section: S,
  raw: string | null,
): InEffect<SectionValues[S]> {
  const key = CONFIG_KEYS[section];
  if (raw === null) {
    return {
      value: DEFAULTS[section],
      origin: 'defaults',
      note: `KV key "${key}" is absent; the defaults in code apply`,
    };
  }
  const parsed = PARSERS[section](raw);
  if (parsed.ok) return { value: parsed.value, origin: 'kv' };
  return {
    value: DEFAULTS[section],
    origin: 'defaults',
    note: `KV key "${key}" is invalid (${parsed.error}); the worker ignores it (its last good copy, else the defaults in code, applies)`,
  };
}

const ORIGIN_LABELS: Record<Origin, string> = {
  file: 'this file',
  kv: 'KV',
  defaults: 'the defaults in code',
};

/**
 * SPEC.md §4: a variant whose flow is unknown silently gets the 'default' flow, which a
 * marketer would only notice in the numbers. So every variant of the split in effect must
 * name a flow of the flows in effect.
 */
export function crossCheck(
  split: InEffect<SplitConfig>,
  flows: InEffect<FlowsConfig>,
): Result<null> {
  const errors = Object.keys(split.value.variants)
    .map((key) => ({ key, flow: flowNameOf(split.value, key) }))
    .filter(({ flow }) => !Object.hasOwn(flows.value.flows, flow))
    .map(({ key, flow }) => `variant "${key}" names flow "${flow}", which is not defined`);
  if (errors.length === 0) return { ok: true, value: null };
  const provenance =
    split.origin === 'file' && flows.origin === 'file'
      ? ''
      : ` (split from ${ORIGIN_LABELS[split.origin]}, flows from ${ORIGIN_LABELS[flows.origin]})`;
  return { ok: false, error: `${errors.join('; ')}${provenance}` };
}

// ---------------------------------------------------------------------------------------------
// Summaries

/** Lines printed after `OK`: what each section of the file will do once it is live. */
export function formatSummary(
  values: DocumentSections,
  checkedAgainst: { split: Origin; flows: Origin },
): string {
  const lines = ['OK'];
  if (values.split) lines.push(...formatSplit(values.split));
  if (values.flows) lines.push(...formatFlows(values.flows));
  for (const section of SECTIONS) {
    const origin = checkedAgainst[section];
    if (origin !== 'file')
      lines.push(`(checked against the ${section} in ${ORIGIN_LABELS[origin]})`);
  }
  return lines.join('\n');
}

function formatSplit(split: SplitConfig): string[] {
  const entries = Object.entries(split.variants);
  const total = entries.reduce((sum, [, variant]) => sum + variant.weight, 0);
  const width = Math.max(...entries.map(([key]) => key.length));
  const rows = entries.map(([key, { weight }]) => {
    const share = formatPercent((weight / total) * 100).padStart(6);
    // Weight 0 is valid (a paused variant) but easy to leave in by mistake.
    const paused = weight === 0 ? '  (never drawn)' : '';
    return `  ${key.padEnd(width)}  ${share}  → flow ${flowNameOf(split, key)}${paused}`;
  });
  return [`split (version ${split.version}), default variant "${split.defaultVariant}":`, ...rows];
}

function formatFlows(flows: FlowsConfig): string[] {
  const entries = Object.entries(flows.flows);
  const width = Math.max(...entries.map(([name]) => name.length));
  const rows = entries.map(([name, screens]) => `  ${name.padEnd(width)}  ${screens.join(' → ')}`);
  return [`flows (version ${flows.version}):`, ...rows];
}

/** 50 → "50%", 100/3 → "33.3%": whole numbers stay whole, others get one decimal. */
export function formatPercent(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return `${rounded}%`;
}

// ---------------------------------------------------------------------------------------------
// get

/**
 * The document `get` prints: each KV value as stored (so it can be edited and `set` back),
 * the defaults in code for an absent key. Notes go to stderr.
 */
export function documentFromKv(raws: Record<Section, string | null>): {
  document: Record<Section, unknown>;
  notes: string[];
} {
  const document = {} as Record<Section, unknown>;
  const notes: string[] = [];
  for (const section of ['split', 'flows'] as const) {
    const raw = raws[section];
    const current = inEffectFromKv(section, raw);
    if (current.note) notes.push(current.note);
    document[section] = raw === null ? current.value : parseOrKeepText(raw);
  }
  return { document, notes };
}

/** An unparseable KV value is still shown, as a string, so the marketer sees what is there. */
function parseOrKeepText(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
