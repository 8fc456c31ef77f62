import { type ContentDocument, parseContent } from '../../shared/config/content';
import { parseExperiments } from '../../shared/config/experiments';
import { parseFlows } from '../../shared/config/flows';
import { parseRouting } from '../../shared/config/routing';
import { parseSplit } from '../../shared/config/split';
import type {
  ConfigDocument,
  ExperimentPhaseChange,
  PhaseChange,
} from '../../shared/console-api/config';
import type { ApprovalReason } from '../../shared/console-api/draft';
import type { FieldError } from '../../shared/console-api/errors';
import type { LanguageNote } from '../../shared/console-api/languages';
import type { Change, VersionSource, VersionSummary } from '../../shared/console-api/versions';
import { logLine } from '../../shared/log';
import { contentLanguageNotes } from '../content/languages';
import { experimentPhases, phaseChange, stampPublish } from '../experiments/config/phases';
import type { ServedConfig } from '../experiments/config/visitor-gets';
import { splitSince, stampRoutes } from '../experiments/holdout/holdout-issues';
import { approvalReasons } from './approval';
import { DEFAULT_CONTENT, DEFAULT_EXPERIMENTS, DEFAULT_ROUTING } from './defaults';
import { diffDocuments } from './diff';
import {
  type CheckRules,
  checkFullDocument,
  inEffectFromKv,
  SECTIONS,
  type Section,
} from './document';
import {
  announceIfBroken,
  type Clearance,
  type GateRefusal,
  type GateVerdict,
  type PublishGate,
  signOffOf,
} from './gate';
import { CONFIG_KEYS } from './load';
import { type StoredVersion, summaryOf, type VersionStore } from './versions';

/**
 * Publishing a config document (the console and `npm run config -- set` alike): check it with
 * the one validator, claim the next version on top of `base` (a second publish from the same base
 * is refused, never a silent overwrite), then write KV's `flows`, `routing`, `split` and
 * `experiments`, which the edge reads within its cache time (worker/config/load.ts). Each publish
 * is one `config_published` log line.
 */

/** KV as publishing needs it: the keys the edge reads. */
export interface LiveKeys {
  read(key: string): Promise<string | null>;
  write(key: string, value: string): Promise<void>;
  /** Deletes a key (a failed publish taking back a key that was absent before it). */
  remove(key: string): Promise<void>;
}

export function kvLiveKeys(kv: KVNamespace): LiveKeys {
  return {
    read: (key) => kv.get(key, 'text'),
    write: (key, value) => kv.put(key, value),
    remove: (key) => kv.delete(key),
  };
}

export interface PublishStores {
  versions: VersionStore;
  live: LiveKeys;
  /** Where the stores are: development takes a local webhook (worker/config/document.ts). */
  rules?: CheckRules;
  /** The approval every publish is held to where it is required (./gate.ts). */
  gate: PublishGate;
}

export interface PublishInput {
  /** The head's seq the edit started from; null when nothing was published yet. */
  base: number | null;
  document: unknown;
  author: string;
  note: string;
  source: VersionSource;
  restores?: number;
  /**
   * What lets it through the gate (./gate.ts): the draft's approval, a ramp's move, a
   * break-glass; none, and it goes out only where approval is not required.
   */
  clearance?: Clearance;
  now: Date;
}

export type PublishOutcome =
  | { kind: 'published'; version: VersionSummary; document: ConfigDocument }
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'conflict'; head: VersionSummary; changes: Change[] }
  | GateRefusal;

export interface PublishPreview {
  kind: 'preview';
  diff: Change[];
  phase: PhaseChange | null;
  experimentPhases: ExperimentPhaseChange[];
  /** What publishes but is likely a mistake (worker/config/document.ts crossCheck). */
  warnings: FieldError[];
  /** What the publish leaves each other language's visitors of an English change (new ones). */
  languages: LanguageNote[];
  /** The changes that need a second person's approval where it is required (./approval.ts). */
  approval: ApprovalReason[];
  /** The document as it would be published, checked: what the edge would serve. */
  next: ServedConfig;
}

/** The live document as the edge reads it: KV's values where valid (null where not). */
async function readLive(live: LiveKeys): Promise<Partial<ConfigDocument>> {
  const [split, flows, routing, experiments, content] = await Promise.all([
    live.read(CONFIG_KEYS.split),
    live.read(CONFIG_KEYS.flows),
    live.read(CONFIG_KEYS.routing),
    live.read(CONFIG_KEYS.experiments),
    live.read(CONFIG_KEYS.content),
  ]);
  const parsedSplit = split === null ? null : parseSplit(split);
  const parsedFlows = flows === null ? null : parseFlows(flows);
  // No routing or experiments key is how a project starts: the default route alone, and no
  // experiment but the split (worker/config/load.ts).
  const parsedRouting = routing === null ? null : parseRouting(routing);
  const parsedExperiments = experiments === null ? null : parseExperiments(experiments);
  const parsedContent = content === null ? null : parseContent(content);
  return {
    ...(parsedSplit?.ok ? { split: parsedSplit.value } : {}),
    ...(parsedFlows?.ok ? { flows: parsedFlows.value } : {}),
    routing: parsedRouting?.ok ? parsedRouting.value : DEFAULT_ROUTING,
    experiments: parsedExperiments?.ok ? parsedExperiments.value : DEFAULT_EXPERIMENTS,
    content: parsedContent?.ok ? parsedContent.value : DEFAULT_CONTENT,
  };
}

/**
 * What the edge serves now: each section KV holds where valid, else the defaults in code, as the
 * console's state shows it (inEffectFromKv).
 */
export async function liveInEffect(live: LiveKeys): Promise<ServedConfig> {
  const raw = new Map(
    await Promise.all(
      SECTIONS.map(async (section) => [section, await live.read(CONFIG_KEYS[section])] as const),
    ),
  );
  const value = <S extends Section>(section: S) =>
    inEffectFromKv(section, raw.get(section) ?? null).value;
  return {
    split: value('split'),
    flows: value('flows'),
    routing: value('routing'),
    experiments: value('experiments'),
    content: value('content'),
  };
}

interface Current {
  /** Null when nothing was published and KV holds no valid split or flows. */
  document: ConfigDocument | null;
  phase: number;
  /** The experiments live now, which a running experiment's edits are held to. */
  experiments: ConfigDocument['experiments'];
}

/** What a publish is compared with: the head's document, else what KV holds now. */
async function currentDocument(
  stores: PublishStores,
  head: StoredVersion | null,
): Promise<Current> {
  if (head) {
    return { document: head.document, phase: head.phase, experiments: head.document.experiments };
  }
  const live = await readLive(stores.live);
  const document =
    live.split && live.flows && live.routing && live.experiments && live.content
      ? (live as ConfigDocument)
      : null;
  return {
    document,
    phase: live.split?.phase ?? 1,
    experiments: live.experiments ?? DEFAULT_EXPERIMENTS,
  };
}

type Conflict = Extract<PublishOutcome, { kind: 'conflict' }>;

async function conflict(
  stores: PublishStores,
  base: number | null,
  head: StoredVersion,
): Promise<Conflict> {
  const started = base === null ? null : await stores.versions.get(base);
  return {
    kind: 'conflict',
    head: summaryOf(head),
    changes: diffDocuments(started?.document ?? null, head.document),
  };
}

type Refusal = Exclude<PublishOutcome, { kind: 'published' }>;

/**
 * Why an edit started from `base` may not go on top of `head`, or null when it may: a conflict
 * when another version is the head, invalid when `base` names a version and none exists. The
 * review and the publish both ask this, so a review never accepts what the publish refuses.
 */
async function baseRefusal(
  stores: PublishStores,
  base: number | null,
  head: StoredVersion | null,
): Promise<Refusal | null> {
  if ((head?.seq ?? null) === base) return null;
  if (head) return conflict(stores, base, head);
  // A base that names a version that does not exist: nothing to conflict with, but wrong.
  return { kind: 'invalid', errors: [{ path: 'base', message: 'names no published version' }] };
}

/**
 * The phases a publish of `next` starts: the split's and each experiment's. The one place both
 * are worked out, so the review shows what the publish stamps.
 */
function phasesOf(current: Current, next: ConfigDocument) {
  return {
    split: phaseChange(current.document?.split ?? null, next.split, current.phase),
    experiments: experimentPhases(current.experiments, next.experiments),
  };
}

/** The checks and the diff of a publish, writing nothing (the console's review step). */
export async function previewPublish(
  stores: PublishStores,
  base: number | null,
  document: unknown,
): Promise<PublishPreview | Refusal> {
  const head = await stores.versions.head();
  const current = await currentDocument(stores, head);
  const checked = checkFullDocument(
    document,
    current.experiments,
    stores.rules,
    current.document?.routing,
  );
  if (!checked.ok) return { kind: 'invalid', errors: checked.errors };
  const refusal = await baseRefusal(stores, base, head);
  if (refusal) return refusal;
  const next = checked.value.values as ConfigDocument;
  const phases = phasesOf(current, next);
  const diff = diffDocuments(current.document, next);
  return {
    kind: 'preview',
    diff,
    approval: approvalReasons(current.document, next, diff),
    phase: phases.split,
    experimentPhases: phases.experiments,
    warnings: checked.value.warnings,
    languages: newLanguageNotes(current.document?.content ?? null, next.content),
    next: checked.value.values as ServedConfig,
  };
}

/** The language notes `after` has that `before` (the live content) had not. */
function newLanguageNotes(before: ContentDocument | null, after: ContentDocument): LanguageNote[] {
  const known = new Set(before ? contentLanguageNotes(before).map((note) => note.path) : []);
  return contentLanguageNotes(after, before ? [before] : []).filter(
    (note) => !known.has(note.path),
  );
}

/**
 * The document as published: the pages carry the version (logs, events) and results count by
 * phase, both stamped here; so are when the split's phase and each route began, which the
 * holdout reads (whatever the draft sent for them is replaced).
 */
function stampedDocument(
  values: ConfigDocument,
  current: Current,
  input: PublishInput,
  stamp: { id: string; phase: number; splitChanged: boolean },
): ConfigDocument {
  const { id, phase } = stamp;
  const at = input.now.toISOString();
  const since = splitSince(current.document?.split, stamp.splitChanged, at);
  const { since: _sent, ...split } = values.split;
  return {
    split: { ...split, version: id, phase, ...(since === undefined ? {} : { since }) },
    flows: { ...values.flows, version: id },
    routing: stampRoutes({ ...values.routing, version: id }, current.document?.routing, at),
    experiments: stampPublish(
      { ...values.experiments, version: id },
      current.experiments,
      input.now,
      input.author,
    ),
    content: values.content,
  };
}

/** What the gate (./gate.ts) makes of publishing `next` over `current`. */
function configSignOff(
  stores: PublishStores,
  input: PublishInput,
  current: Current,
  next: ConfigDocument,
  emptyHistory: boolean,
): Promise<GateVerdict> {
  return signOffOf(stores.gate, stores.live, {
    clearance: input.clearance ?? { kind: 'none' },
    sent: input.document,
    reasons: approvalReasons(current.document, next, diffDocuments(current.document, next)),
    current: current.document,
    next,
    emptyHistory,
  });
}

export async function publish(stores: PublishStores, input: PublishInput): Promise<PublishOutcome> {
  // What is live first: a running experiment's edits are checked against it.
  const head = await stores.versions.head();
  const current = await currentDocument(stores, head);
  const checked = checkFullDocument(
    input.document,
    current.experiments,
    stores.rules,
    current.document?.routing,
  );
  if (!checked.ok) return { kind: 'invalid', errors: checked.errors };
  const refusal = await baseRefusal(stores, input.base, head);
  if (refusal) return refusal;
  const values = checked.value.values as ConfigDocument;
  const phases = phasesOf(current, values);
  const change = phases.split;
  const seq = (head?.seq ?? 0) + 1;
  const id = `v${seq}`;
  const phase = change?.to ?? current.phase;
  // Checked again with the stamps, so the size cap holds for what is written.
  const stamped = checkFullDocument(
    stampedDocument(values, current, input, { id, phase, splitChanged: change !== null }),
    current.experiments,
    stores.rules,
    current.document?.routing,
  );
  if (!stamped.ok) return { kind: 'invalid', errors: stamped.errors };
  const gate = await configSignOff(stores, input, current, values, head === null);
  if (!gate.ok) return gate.refusal;
  const { signOff } = gate;
  const version: StoredVersion = {
    seq,
    id,
    at: input.now.toISOString(),
    author: input.author,
    note: input.note,
    base: input.base,
    phase,
    source: input.source,
    ...(input.restores === undefined ? {} : { restores: input.restores }),
    ...signOff,
    document: stamped.value.values as ConfigDocument,
    serialized: stamped.value.serialized,
  };
  if (!(await stores.versions.claim(version))) {
    const winner = await stores.versions.head();
    if (winner) return conflict(stores, input.base, winner);
    throw new Error('the version could not be claimed, and no other version exists');
  }
  await writeLive(stores, version);
  await announceIfBroken(
    stores.gate,
    gate,
    { history: 'config', version: id, author: input.author },
    input.now,
  );
  logLine({
    event: 'config_published',
    version: id,
    seq,
    base: input.base,
    author: input.author,
    approver: signOff.approver,
    requester: signOff.requester,
    break_glass: signOff.breakGlass === undefined ? undefined : true,
    source: input.source,
    restores: input.restores,
    phase,
    new_phase: change !== null,
    // The experiments starting a new phase, by id; absent when none does.
    experiments_new_phase:
      phases.experiments.map((started) => started.experiment).join(',') || undefined,
    changes: diffDocuments(current.document, version.document).length,
    note: input.note.slice(0, 200),
  });
  return { kind: 'published', version: summaryOf(version), document: version.document };
}

/**
 * Writes the claimed version to KV in SECTIONS order, flows first, experiments last (a new route,
 * variant or experiment never points at a flow or route not yet stored). If a write fails, the
 * keys already written get their old values back (a key that was absent is removed again) and the
 * claim is released, so the history never names a version the edge did not get; then the error
 * goes on.
 */
async function writeLive(stores: PublishStores, version: StoredVersion): Promise<void> {
  const previous = {} as Record<Section, string | null>;
  const written: Section[] = [];
  try {
    for (const section of SECTIONS) {
      previous[section] = await stores.live.read(CONFIG_KEYS[section]);
      await stores.live.write(CONFIG_KEYS[section], version.serialized[section]);
      written.push(section);
    }
  } catch (error) {
    for (const section of written.reverse()) {
      const old = previous[section];
      const key = CONFIG_KEYS[section];
      await (old === null ? stores.live.remove(key) : stores.live.write(key, old)).catch(() => {});
    }
    await stores.versions.release(version.seq);
    throw error;
  }
}

/**
 * Publishes an earlier version's document again, as a new version on top of `base`: through the
 * gate like any publish, so where approval is required it goes out as a break-glass, or through
 * the shared draft (worker/console/draft-route.ts restore) for review.
 */
export async function rollback(
  stores: PublishStores,
  input: Omit<PublishInput, 'document' | 'source' | 'restores'> & { seq: number },
): Promise<PublishOutcome | { kind: 'unknown_version' }> {
  const earlier = await stores.versions.get(input.seq);
  if (!earlier) return { kind: 'unknown_version' };
  return publish(stores, {
    ...input,
    document: earlier.document,
    source: 'rollback',
    restores: input.seq,
    note: input.note || `roll back to ${earlier.id}`,
  });
}
