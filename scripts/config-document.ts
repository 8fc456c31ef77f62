import type { ContentDocument } from '../shared/config/content';
import type { ExperimentsDocument, VariantChange } from '../shared/config/experiments';
import type { FlowsDocument } from '../shared/config/flows';
import type { HoldoutDocument } from '../shared/config/holdout';
import type { RoutingDocument } from '../shared/config/routing';
import type { SplitDocument } from '../shared/config/split';
import type { VersionSummary } from '../shared/console-api/versions';
import { SLOTS } from '../shared/experiments';
import {
  type DocumentSections,
  inEffectFromKv,
  ORIGIN_LABELS,
  type Origin,
  SECTIONS,
  type Section,
} from '../worker/config/document';
import { flowNameOf } from '../worker/funnel/flow';
import {
  parseStoreArgs,
  STORE_OPTIONS_USAGE,
  type StoreOptions,
  type ParsedArgs as StoreParsedArgs,
} from './cli';

/**
 * The pure half of the marketers' config CLI (`npm run config`): arguments and the summaries
 * printed. The document a marketer edits is checked by worker/config/document.ts, the validator
 * the console runs too.
 * Files, KV and wrangler live in `config.ts` and `kv-store.ts`; the store options both KV tools
 * take are parsed in `cli.ts`.
 */

// ---------------------------------------------------------------------------------------------
// Arguments

export const USAGE = `Usage: npm run config -- <command> [options]

Commands:
  get               print the config in KV as one JSON document
                    {"split": ..., "flows": ..., "routing": ..., "experiments": ...}
  show              print what the config in KV does: variants and shares, flows, routes and
                    experiments, one line or two each
  validate <file>   check a JSON file of that shape (any of its sections) without writing
  set <file> [note] validate the file, then publish it as the next version (KV and the history);
                    sections it lacks keep what KV holds. CONFIG_AUTHOR names who publishes
  history           list the published versions, newest first: who, when, why, phase
  seed              publish what KV holds (the defaults in code where a key is absent) as the
                    first version, or with a history, write the newest back to an absent key

${STORE_OPTIONS_USAGE}`;

export type Command =
  | { name: 'get' }
  | { name: 'show' }
  | { name: 'seed' }
  | { name: 'history' }
  | { name: 'validate'; file: string }
  | { name: 'set'; file: string; note: string };

export type CliOptions = StoreOptions;

export type ParsedArgs = StoreParsedArgs<Command>;

const COMMANDS_WITHOUT_FILE = new Set(['get', 'show', 'seed', 'history']);

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const args = parseStoreArgs(argv);
  if (args.kind !== 'command') return args;
  const { name, rest, options } = args;
  if (COMMANDS_WITHOUT_FILE.has(name)) {
    if (rest.length > 0) return { kind: 'usage-error', error: `${name} takes no file` };
    return {
      kind: 'run',
      command: { name: name as 'get' | 'show' | 'seed' | 'history' },
      options,
    };
  }
  if (name === 'validate') {
    const [file, ...extra] = rest;
    if (file === undefined || extra.length > 0) {
      return { kind: 'usage-error', error: 'validate takes exactly one file' };
    }
    return { kind: 'run', command: { name, file }, options };
  }
  if (name === 'set') {
    const [file, note, ...extra] = rest;
    if (file === undefined || extra.length > 0) {
      return { kind: 'usage-error', error: 'set takes a file and, after it, one note' };
    }
    return { kind: 'run', command: { name, file, note: note ?? '' }, options };
  }
  return { kind: 'usage-error', error: `unknown command "${name}"` };
}

// ---------------------------------------------------------------------------------------------
// Summaries

/** Lines printed after `OK`: what each section of the file will do once it is live. */
export function formatSummary(
  values: DocumentSections,
  checkedAgainst: Record<Section, Origin>,
): string {
  const lines = ['OK', ...formatSections(values)];
  for (const section of SECTIONS) {
    const origin = checkedAgainst[section];
    if (origin !== 'file')
      lines.push(`(checked against the ${section} in ${ORIGIN_LABELS[origin]})`);
  }
  return lines.join('\n');
}

/** What each section given does, in the order a marketer reads them (`show`, and after `OK`). */
export function formatSections(values: DocumentSections): string[] {
  const lines: string[] = [];
  if (values.split) lines.push(...formatSplit(values.split));
  if (values.flows) lines.push(...formatFlows(values.flows));
  if (values.routing) lines.push(...formatRouting(values.routing));
  if (values.experiments) lines.push(...formatExperiments(values.experiments));
  if (values.experiments?.holdout) lines.push(holdoutLine(values.experiments.holdout));
  if (values.content) lines.push(...formatContent(values.content));
  return lines;
}

/** Each screen the content arranges: its sections in order (hidden ones in brackets), its copy. */
function formatContent(content: ContentDocument): string[] {
  const screens = Object.entries(content.screens);
  if (screens.length === 0) return ['content: none (every screen as code composes it)'];
  const rows = screens.map(([screen, own]) => {
    const sections = own?.sections
      ?.map(({ id, visible }) => (visible ? id : `[${id}]`))
      .join(' → ');
    const copy = Object.entries(own?.copy ?? {})
      .map(([language, texts]) => `${language} ${Object.keys(texts).length}`)
      .join(', ');
    const parts = [sections ? `sections ${sections}` : null, copy ? `texts ${copy}` : null];
    return `  ${screen}  ${parts.filter(Boolean).join('; ') || 'as in code'}`;
  });
  return ['content:', ...rows];
}

function formatSplit(split: SplitDocument): string[] {
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

function formatFlows(flows: FlowsDocument): string[] {
  const entries = Object.entries(flows.flows);
  const width = Math.max(...entries.map(([name]) => name.length));
  const rows = entries.map(([name, screens]) => `  ${name.padEnd(width)}  ${screens.join(' → ')}`);
  return [`flows (version ${flows.version}):`, ...rows];
}

function formatRouting(routing: RoutingDocument): string[] {
  const width = Math.max(...routing.routes.map((route) => route.id.length));
  const rows = routing.routes.map((route) => {
    const who = route.audience ? `audience ${route.audience}` : 'everyone else';
    const plans = route.plans ? `, plans ${route.plans.join(', ')}` : '';
    const paused = route.paused ? '  (paused)' : '';
    return `  ${route.id.padEnd(width)}  ${who} → flow ${route.flow}${plans}${paused}`;
  });
  return [`routing (version ${routing.version}), first match wins:`, ...rows];
}

/** The holdout in one line: whom it holds back from which experiments (docs/experiments.md). */
function holdoutLine(holdout: HoldoutDocument): string {
  const share = formatPercent(holdout.percent);
  const title = `holdout ${holdout.seed}`;
  if (holdout.status === 'ended')
    return `${title}: ended ${holdout.endedAt}; held ${share} out from ${holdout.startedAt}`;
  const covered =
    holdout.status === 'analysis'
      ? `started from ${holdout.startedAt} to ${holdout.analysisFrom} (analysis period)`
      : `started since ${holdout.startedAt}`;
  return `${title}: ${share} held out (and ${share} measured) from the experiments, split test phases and routes ${covered}`;
}

/**
 * Each experiment in document order (the order the edge tries them, layer by layer): who it
 * takes on the first line, its variants with their shares and what each changes on the second.
 */
function formatExperiments(experiments: ExperimentsDocument): string[] {
  const entries = Object.entries(experiments.experiments);
  const title = `experiments (version ${experiments.version})`;
  if (entries.length === 0) return [`${title}: none besides the split`];
  const width = Math.max(...entries.map(([id]) => id.length));
  const rows = entries.flatMap(([id, experiment]) => {
    const { audience, range } = experiment;
    const who = [
      `layer ${experiment.layer}`,
      ...(range ? [`range ${formatPercent(range[0] * 100)}–${formatPercent(range[1] * 100)}`] : []),
      `coverage ${formatPercent(experiment.coverage * 100)}`,
      audience.routes ? `routes ${audience.routes.join(', ')}` : 'every route',
      ...(audience.audience ? [`audience ${audience.audience}`] : []),
      ...(audience.groups ? ['conditions of its own'] : []),
    ];
    const variants = Object.entries(experiment.variants);
    const total = variants.reduce((sum, [, variant]) => sum + variant.weight, 0);
    const arms = variants.map(([key, variant]) => {
      const share = formatPercent((variant.weight / total) * 100);
      // Weight 0 is valid (a paused variant) but easy to leave in by mistake.
      const notes = [
        ...(key === experiment.control ? ['control'] : []),
        ...(variant.weight === 0 ? ['paused'] : []),
      ];
      const noted = notes.length > 0 ? ` (${notes.join(', ')})` : '';
      const change = key === experiment.control ? '' : ` → ${changeText(variant.change)}`;
      return `${key} ${share}${noted}${change}`;
    });
    return [
      `  ${id.padEnd(width)}  "${experiment.name}", ${experiment.status}, ${who.join(', ')}`,
      `  ${' '.repeat(width)}  ${arms.join('; ')}`,
    ];
  });
  return [`${title}, each layer's tried in this order:`, ...rows];
}

/** What a variant changes: `flow lp2`, `landing screen one_pager_ai`, `plans monthly, annual`. */
function changeText(change: VariantChange): string {
  const parts = [
    ...(change.flow ? [`flow ${change.flow}`] : []),
    ...SLOTS.flatMap((slot) => {
      const screen = change.screens?.[slot];
      return screen ? [`${slot} screen ${screen}`] : [];
    }),
    ...(change.plans ? [`plans ${change.plans.join(', ')}`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'nothing changed';
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
  for (const section of ['split', 'flows', 'routing', 'experiments', 'content'] as const) {
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

/** One line per version for `history`: `v3  2026-11-22T10:00:00.000Z  phase 2  rollback of v1  by a@b.c: why`. */
export function formatHistoryLine(version: VersionSummary): string {
  const how = version.restores === undefined ? version.source : `rollback to v${version.restores}`;
  const note = version.note ? `: ${version.note}` : '';
  // Who let it out where a second person's approval was asked (worker/config/gate.ts).
  const approved = version.approver === undefined ? '' : `, approved by ${version.approver}`;
  const glass = version.breakGlass === undefined ? '' : ` [break glass: ${version.breakGlass}]`;
  return `${version.id.padEnd(5)} ${version.at}  phase ${version.phase}  ${how}  by ${version.author}${approved}${note}${glass}`;
}
