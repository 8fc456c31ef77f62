import { type ContentDocument, parseContent } from '../../shared/config/content';
import { type ExperimentsDocument, parseExperiments } from '../../shared/config/experiments';
import { type FlowsDocument, parseFlows } from '../../shared/config/flows';
import {
  CONFIG_MAX_BYTES,
  type DocumentIssue,
  type ParseResult,
} from '../../shared/config/parse-document';
import { parseRouting, type RoutingDocument } from '../../shared/config/routing';
import { parseSplit, type SplitDocument } from '../../shared/config/split';
import type { FieldError } from '../../shared/console-api/errors';
import { contentOfRef } from '../../shared/content-body';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { composedRefIssues, contentIssues } from '../content/check';
import { validateExperiments } from '../experiments/config/validate';
import { routeRampEditIssues } from '../experiments/ramps/ramp-edits';
import { flowNameOf } from '../funnel/flow';
import type { PictureSizes } from '../pictures/library';
import { quizIssues } from '../quiz/check';
import { routingWarnings } from '../routing/warnings';
import {
  DEFAULT_CONTENT,
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from './defaults';
import { CONFIG_KEYS } from './load';

/**
 * The one validator of the config document a marketer edits (`{ "split": ..., "flows": ...,
 * "routing": ..., "experiments": ... }`): `npm run config -- validate|set` and the console's check
 * and publish all run it, so a document one of them refuses the others refuse too, for the same
 * reason. Each section must pass the schema the worker reads KV with (shared/config/split.ts,
 * flows.ts, routing.ts, experiments.ts), as the exact string that will be stored, and what a
 * section names in another must exist there (crossCheck).
 */

export type Section = keyof typeof CONFIG_KEYS;

/**
 * Content, then flows, then routing, then split, then experiments: `set` and a publish write in
 * this order so a new route or variant never points at a flow, the split at a route, nor an
 * experiment at a flow, route or screen content that is not stored yet (the worker would send
 * those visitors to 'default' meanwhile).
 */
export const SECTIONS: readonly Section[] = ['content', 'flows', 'routing', 'split', 'experiments'];

export interface SectionValues {
  split: SplitDocument;
  flows: FlowsDocument;
  routing: RoutingDocument;
  experiments: ExperimentsDocument;
  content: ContentDocument;
}

const DEFAULTS: SectionValues = {
  split: DEFAULT_SPLIT,
  flows: DEFAULT_FLOWS,
  routing: DEFAULT_ROUTING,
  experiments: DEFAULT_EXPERIMENTS,
  content: DEFAULT_CONTENT,
};

const PARSERS: { [S in Section]: (raw: unknown) => ParseResult<SectionValues[S]> } = {
  split: parseSplit,
  flows: parseFlows,
  routing: parseRouting,
  experiments: parseExperiments,
  content: parseContent,
};

/** The sections in the order a marketer reads them, as messages name them. */
const READING_ORDER: readonly Section[] = ['split', 'flows', 'routing', 'experiments', 'content'];

/** `"split", "flows", "routing" and "experiments"` (or `and/or`). */
function sectionNames(conjunction: 'and' | 'and/or'): string {
  const quoted = READING_ORDER.map((section) => `"${section}"`);
  return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted.at(-1)}`;
}

export type Result<T> = ParseResult<T>;

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
    return {
      ok: false,
      error: `the file must hold a JSON object with ${sectionNames('and/or')}`,
    };
  }
  const unknownKey = Object.keys(raw).find((key) => !Object.hasOwn(CONFIG_KEYS, key));
  if (unknownKey !== undefined) {
    return {
      ok: false,
      error: `unknown top-level key "${unknownKey}" (expected ${sectionNames('and/or')})`,
    };
  }
  const present = SECTIONS.filter((section) => Object.hasOwn(raw, section));
  if (present.length === 0) {
    return {
      ok: false,
      error: `the file has none of ${sectionNames('and')}; nothing to check`,
    };
  }
  return checkSections(raw as Record<Section, unknown>, present);
}

function checkSections(
  raw: Record<Section, unknown>,
  present: readonly Section[],
): Result<CheckedDocument> {
  const checked: CheckedDocument = { values: {}, serialized: {} };
  const errors: string[] = [];
  const issues: DocumentIssue[] = [];
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
      for (const issue of result.issues ?? [{ path: '', message: result.error }])
        issues.push({
          path: issue.path ? `${section}.${issue.path}` : section,
          message: issue.message,
        });
    }
  }
  return errors.length > 0
    ? { ok: false, error: errors.join('; '), issues }
    : { ok: true, value: checked };
}

// ---------------------------------------------------------------------------------------------
// What is in effect, and the cross-check between the sections

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

export const ORIGIN_LABELS: Record<Origin, string> = {
  file: 'this file',
  kv: 'KV',
  defaults: 'the defaults in code',
};

/** The sections in effect once a file is written (or a document published). */
export type SectionsInEffect = { [S in Section]: InEffect<SectionValues[S]> };

/** What a document that passes may still hold: likely mistakes, at their paths, never refusals. */
interface CrossChecked {
  warnings: DocumentIssue[];
}

/**
 * SPEC.md §4: a variant whose flow is unknown silently gets the 'default' flow, which a
 * marketer would only notice in the numbers. So every variant of the split in effect, and every
 * route, must name a flow of the flows in effect, the split may name only routes that exist, and
 * the experiments must hold together with the rest (experimentIssues). `running` is the
 * experiments section live before this write, which a running experiment's edits are held to;
 * absent, nothing runs yet; `liveRouting` the routes, which a route's ramp is held to.
 */
/**
 * What depends on where the config is checked: in development (npm start, the local CLI) the
 * alerts' webhook may be a local http:// receiver; a deployment refuses it.
 */
export interface CheckRules {
  development?: boolean;
  /**
   * The picture library's sizes (worker/pictures/library.ts), where it is at hand (the console):
   * the content's pictures must be in it. Absent (the CLI), only their shape and alt text are
   * checked.
   */
  pictures?: PictureSizes;
}

/**
 * Split variants drawn (weight above 0) whose flows walk the same screens: the split tests
 * nothing between them but the name. An A/A test is a way to check the counting, so this is a
 * warning, never a refusal; more often it is a copied variant whose flow was never changed.
 */
function sameFlowWarnings(split: SplitDocument, flows: FlowsDocument): DocumentIssue[] {
  const warnings: DocumentIssue[] = [];
  const seen = new Map<string, string>();
  for (const [key, variant] of Object.entries(split.variants)) {
    if (!(variant.weight > 0)) continue;
    const flow = flowNameOf(split, key);
    const screens = flows.flows[flow];
    if (!screens) continue;
    const walk = screens.join(' ');
    const earlier = seen.get(walk);
    if (earlier === undefined) {
      seen.set(walk, key);
      continue;
    }
    const earlierFlow = flowNameOf(split, earlier);
    warnings.push({
      path: `split.variants.${key}.flow`,
      message: `walks the same screens as variant "${earlier}" (${flow === earlierFlow ? `both flow "${flow}"` : `flows "${earlierFlow}" and "${flow}"`}): the split tests nothing between them; give one another flow, or keep it as an A/A test on purpose`,
    });
  }
  return warnings;
}

/** The content's issues against the flows and the experiments: its screens', its quiz's. */
function contentSectionIssues(live: SectionsInEffect, rules: CheckRules): DocumentIssue[] {
  const content = live.content.value;
  const flows = live.flows.value;
  return [
    ...contentIssues(content, rules.pictures),
    ...composedRefIssues(flows, content),
    ...quizIssues({ content, flows, experiments: live.experiments.value }, rules.pictures),
  ];
}

export function crossCheck(
  live: SectionsInEffect,
  running?: ExperimentsDocument,
  rules: CheckRules = {},
  /** The routes live before this write, which a route's ramp is held to (ramp-edits.ts). */
  liveRouting?: RoutingDocument,
): Result<CrossChecked> {
  const { split, flows, routing } = live;
  const issues: DocumentIssue[] = [];
  for (const key of Object.keys(split.value.variants)) {
    const flow = flowNameOf(split.value, key);
    if (!Object.hasOwn(flows.value.flows, flow)) {
      issues.push({
        path: `split.variants.${key}.flow`,
        message: `names flow "${flow}", which is not defined`,
      });
    }
  }
  routing.value.routes.forEach((route, index) => {
    if (!Object.hasOwn(flows.value.flows, route.flow)) {
      issues.push({
        path: `routing.routes.${index}.flow`,
        message: `names flow "${route.flow}", which is not defined`,
      });
    }
    for (const [screen, name] of Object.entries(route.content ?? {})) {
      const variants = contentOfRef(live.content.value, screen)?.variants ?? {};
      if (name !== undefined && !Object.hasOwn(variants, name)) {
        issues.push({
          path: `routing.routes.${index}.content.${screen}`,
          message: `names content "${name}" of ${screen}, which is not defined`,
        });
      }
    }
  });
  const routeIds = new Set(routing.value.routes.map((route) => route.id));
  (split.value.routes ?? [DEFAULT_ROUTE_ID]).forEach((id, index) => {
    if (!routeIds.has(id)) {
      issues.push({
        path: `split.routes.${index}`,
        message: `names route "${id}", which is not defined`,
      });
    }
  });
  // The sections the experiments name are checked before the experiments, which read them all;
  // the issues are listed in the order a marketer reads the document.
  const content = contentSectionIssues(live, rules);
  const routeWarnings = routingWarnings(routing.value);
  const experiments = experimentIssues(live, running, rules);
  issues.push(...experiments.issues);
  issues.push(...routeRampEditIssues(routing.value, liveRouting, Date.now()));
  issues.push(...content);
  if (issues.length === 0) {
    return {
      ok: true,
      value: {
        warnings: [
          ...routeWarnings,
          ...sameFlowWarnings(split.value, flows.value),
          ...experiments.warnings,
        ],
      },
    };
  }
  const origins = SECTIONS.filter((section) => live[section].origin !== 'file');
  const provenance =
    origins.length === 0
      ? ''
      : ` (${READING_ORDER.map((section) => `${section} from ${ORIGIN_LABELS[live[section].origin]}`).join(', ')})`;
  return {
    ok: false,
    error: `${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}${provenance}`,
    issues,
  };
}

/** What the experiments' check finds, each at its path within the `experiments` section. */
interface ExperimentFindings {
  issues: DocumentIssue[];
  warnings: DocumentIssue[];
}

/**
 * The experiments against the rest of the config: the flows, routes and audiences they name,
 * the layers' overlaps, and the edits a running experiment may take (held to `running`). The
 * one place crossCheck asks; refusals and warnings come back at their document paths
 * (`experiments.experiments.pw-us.variants.b.change.flow`).
 */
function experimentIssues(
  live: SectionsInEffect,
  running: ExperimentsDocument | undefined,
  rules: CheckRules,
): ExperimentFindings {
  const found = validateExperiments(
    live.experiments.value,
    {
      flows: live.flows.value,
      routing: live.routing.value,
      split: live.split.value,
      content: live.content.value,
      now: new Date(),
      development: rules.development === true,
    },
    running,
  );
  return found;
}

/** A whole document the console sends: every section, checked as `set` checks a file. */
export interface ValidDocument {
  values: SectionValues;
  /** Each section as the exact string that will be stored. */
  serialized: Record<Section, string>;
  /** Likely mistakes that do not stop the publish (CheckAnswer.warnings). */
  warnings: FieldError[];
}

/**
 * Said of a section the document lacks. A console page opened before the worker gained a section
 * sends documents without it; taking that for the section's defaults would end what the section
 * holds (every experiment running) in a publish whose review never showed it, so it is refused.
 */
const MISSING_SECTION =
  'is missing (a console page opened before the worker was updated leaves it out: reload the page)';

/**
 * A whole document's sections, each as the edge reads it (its schema, not yet the checks across
 * sections): what the console's "what does this visitor get" resolves a draft with, and the
 * first half of checkFullDocument.
 */
export function parseFullDocument(
  raw: unknown,
): { ok: true; values: SectionValues } | { ok: false; errors: FieldError[] } {
  const checked = parseSectionsOf(raw);
  return checked.ok ? { ok: true, values: checked.values } : checked;
}

function parseSectionsOf(
  raw: unknown,
):
  | { ok: true; values: SectionValues; serialized: Record<Section, string> }
  | { ok: false; errors: FieldError[] } {
  const whole = (message: string) => ({ ok: false as const, errors: [{ path: '', message }] });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return whole(`the document must be a JSON object with ${sectionNames('and')}`);
  const unknownKey = Object.keys(raw).find((key) => !Object.hasOwn(CONFIG_KEYS, key));
  if (unknownKey !== undefined)
    return whole(`unknown top-level key "${unknownKey}" (expected ${sectionNames('and')})`);
  const missing = READING_ORDER.filter((section) => !Object.hasOwn(raw, section));
  if (missing.length > 0)
    return {
      ok: false,
      errors: missing.map((section) => ({ path: section, message: MISSING_SECTION })),
    };
  const checked = checkSections(raw as Record<Section, unknown>, SECTIONS);
  if (!checked.ok) return { ok: false, errors: checked.issues ?? [] };
  return {
    ok: true,
    values: checked.value.values as SectionValues,
    serialized: checked.value.serialized as Record<Section, string>,
  };
}

/**
 * The console's check of a document: the same as `npm run config -- validate` on a file holding
 * every section, with every problem naming its field (`split.variants.lp1.weight`). `running`:
 * the experiments live before the publish (crossCheck).
 */
export function checkFullDocument(
  raw: unknown,
  running?: ExperimentsDocument,
  rules: CheckRules = {},
  liveRouting?: RoutingDocument,
): { ok: true; value: ValidDocument } | { ok: false; errors: FieldError[] } {
  const checked = parseSectionsOf(raw);
  if (!checked.ok) return checked;
  const { values } = checked;
  const crossed = crossCheck(
    {
      split: { value: values.split, origin: 'file' },
      flows: { value: values.flows, origin: 'file' },
      routing: { value: values.routing, origin: 'file' },
      experiments: { value: values.experiments, origin: 'file' },
      content: { value: values.content, origin: 'file' },
    },
    running,
    rules,
    liveRouting,
  );
  if (!crossed.ok) return { ok: false, errors: crossed.issues ?? [] };
  return {
    ok: true,
    value: {
      values,
      serialized: checked.serialized,
      warnings: crossed.value.warnings,
    },
  };
}
