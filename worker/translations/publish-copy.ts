import type { CopyDocument } from '../../shared/config/copy';
import { parseDictionary, parseManifest } from '../../shared/config/translations';
import type { CopySource, CopyVersionSummary } from '../../shared/console-api/copy';
import type { FieldError } from '../../shared/console-api/errors';
import type { Change } from '../../shared/console-api/versions';
import { logLine } from '../../shared/log';
import { copyApprovalReasons } from '../config/approval';
import {
  announceIfBroken,
  type Clearance,
  type GateRefusal,
  type PublishGate,
  signOffOf,
} from '../config/gate';
import type { LiveKeys } from '../config/publish';
import { flatOverride } from './check';
import { checkCopyDocument, diffCopy, serializedCopy } from './copy-document';
import { type CopyVersionStore, copySummaryOf, type StoredCopyVersion } from './copy-versions';
import { TRANSLATION_KEYS } from './source';

/**
 * Publishing the copy (the console's Copy area and `npm run translations` alike): check every
 * language's overrides with the one set of rules, claim the next copy version on top of `base`
 * (a second publish from the same base is refused, never a silent overwrite), then store each
 * language's override under a new timestamp and point `translations:manifest` at it, which the
 * edge picks up within its cache time (worker/translations/source.ts, whose read path this
 * leaves as it was). Each publish is one `copy_published` log line.
 */

export interface CopyStores {
  versions: CopyVersionStore;
  live: LiveKeys;
  /** The approval every publish is held to where it is required (worker/config/gate.ts). */
  gate: PublishGate;
}

/** SPEC.md §9: at most 10 translation reads (and here writes) at once. */
const PARALLEL = 10;

/** Runs `task` on every item, at most PARALLEL at a time (the CLI's reads and writes too). */
export async function inBatches<T, R>(items: readonly T[], task: (item: T) => Promise<R>) {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL) {
    results.push(...(await Promise.all(items.slice(i, i + PARALLEL).map(task))));
  }
  return results;
}

export type LiveCopy =
  | { ok: true; copy: CopyDocument; timestamp: number | null }
  | {
      ok: false;
      error: string;
      timestamp: number | null;
      /** The languages whose override cannot be read, and the others' overrides. */
      broken: string[];
      copy: CopyDocument;
    };

/** The overrides KV holds now, as the edge reads them; an error when the edge cannot. */
export async function readLiveCopy(live: LiveKeys): Promise<LiveCopy> {
  const raw = await live.read(TRANSLATION_KEYS.manifest);
  if (raw === null) return { ok: true, copy: {}, timestamp: null };
  const manifest = parseManifest(raw);
  if (!manifest.ok) {
    const error = `the manifest in KV is invalid (${manifest.error})`;
    return { ok: false, error, timestamp: null, broken: [], copy: {} };
  }
  const { timestamp, languages } = manifest.value;
  const read = await inBatches(languages, async (language) => {
    const key = TRANSLATION_KEYS.dictionary(language, timestamp);
    const text = await live.read(key);
    if (text === null) return { language, error: `"${key}" is missing` };
    const parsed = parseDictionary(text);
    return parsed.ok
      ? { language, texts: flatOverride(parsed.value), error: undefined }
      : { language, texts: undefined, error: `"${key}" is invalid (${parsed.error})` };
  });
  const copy: CopyDocument = {};
  for (const r of read) {
    if (r.texts && Object.keys(r.texts).length > 0) copy[r.language] = r.texts;
  }
  const failed = read.filter((r) => r.error !== undefined);
  if (failed.length === 0) return { ok: true, copy, timestamp };
  const error = failed.map((r) => r.error).join('; ');
  return { ok: false, error, timestamp, broken: failed.map((r) => r.language), copy };
}

export type CopyRefusal =
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'conflict'; head: CopyVersionSummary; changes: Change[] };

export type CopyPublishRefusal = CopyRefusal | GateRefusal;

export type CopyPublishOutcome =
  | { kind: 'published'; version: CopyVersionSummary; copy: CopyDocument }
  | CopyPublishRefusal;

/** What a publish is compared with: the head's copy, else what KV holds (none if unreadable). */
async function currentCopy(stores: CopyStores, head: StoredCopyVersion | null) {
  if (head) return head.copy;
  const live = await readLiveCopy(stores.live);
  return live.ok ? live.copy : null;
}

async function baseRefusal(
  stores: CopyStores,
  base: number | null,
  head: StoredCopyVersion | null,
): Promise<CopyRefusal | null> {
  if ((head?.seq ?? null) === base) return null;
  if (head) {
    const started = base === null ? null : await stores.versions.get(base);
    return {
      kind: 'conflict',
      head: copySummaryOf(head),
      changes: diffCopy(started?.copy ?? null, head.copy),
    };
  }
  return { kind: 'invalid', errors: [{ path: 'base', message: 'names no published version' }] };
}

/** The checks and the diff of a copy publish, writing nothing (the console's review). */
export async function previewCopy(
  stores: CopyStores,
  base: number | null,
  document: unknown,
): Promise<
  { kind: 'preview'; diff: Change[]; copy: CopyDocument; before: CopyDocument | null } | CopyRefusal
> {
  const checked = checkCopyDocument(document);
  if (!checked.ok) return { kind: 'invalid', errors: checked.errors };
  const head = await stores.versions.head();
  const refusal = await baseRefusal(stores, base, head);
  if (refusal) return refusal;
  const before = await currentCopy(stores, head);
  return { kind: 'preview', diff: diffCopy(before, checked.copy), copy: checked.copy, before };
}

export interface CopyPublishInput {
  base: number | null;
  copy: unknown;
  author: string;
  note: string;
  source: CopySource;
  restores?: number;
  /**
   * What lets it through the gate: the copy has no shared draft to approve, so where approval is
   * required only a break-glass (worker/config/gate.ts).
   */
  clearance?: Clearance;
  now: Date;
}

/**
 * The timestamp a new copy version stores its overrides under: new keys, so no edge keeps a stale
 * cached override (source.ts); past the live one and the head's even when this clock is behind.
 */
async function nextTimestamp(
  stores: CopyStores,
  head: StoredCopyVersion | null,
  now: Date,
): Promise<number> {
  const manifest = await stores.live.read(TRANSLATION_KEYS.manifest);
  const parsed = manifest === null ? null : parseManifest(manifest);
  const liveTimestamp = parsed?.ok ? parsed.value.timestamp : 0;
  return Math.max(Math.floor(now.getTime() / 1000), liveTimestamp + 1, (head?.timestamp ?? 0) + 1);
}

export async function publishCopy(
  stores: CopyStores,
  input: CopyPublishInput,
): Promise<CopyPublishOutcome> {
  const checked = checkCopyDocument(input.copy);
  if (!checked.ok) return { kind: 'invalid', errors: checked.errors };
  const head = await stores.versions.head();
  const refusal = await baseRefusal(stores, input.base, head);
  if (refusal) return refusal;
  const before = await currentCopy(stores, head);
  const gate = await signOffOf(stores.gate, stores.live, {
    clearance: input.clearance ?? { kind: 'none' },
    sent: input.copy,
    reasons: copyApprovalReasons(diffCopy(before, checked.copy)),
    emptyHistory: head === null,
  });
  if (!gate.ok) return gate.refusal;
  const { breakGlass } = gate.signOff;
  const timestamp = await nextTimestamp(stores, head, input.now);
  const seq = (head?.seq ?? 0) + 1;
  const version: StoredCopyVersion = {
    seq,
    id: `c${seq}`,
    at: input.now.toISOString(),
    author: input.author,
    note: input.note,
    base: input.base,
    source: input.source,
    ...(input.restores === undefined ? {} : { restores: input.restores }),
    ...(breakGlass === undefined ? {} : { breakGlass }),
    timestamp,
    copy: checked.copy,
  };
  if (!(await stores.versions.claim(version))) {
    const winner = await stores.versions.head();
    const lost = winner && (await baseRefusal(stores, input.base, winner));
    if (lost) return lost;
    throw new Error('the copy version could not be claimed, and no other version exists');
  }
  try {
    const languages = Object.keys(version.copy);
    // Every override before the manifest, so the manifest never names a key not yet stored.
    await inBatches(languages, (language) =>
      stores.live.write(
        TRANSLATION_KEYS.dictionary(language, timestamp),
        serializedCopy(version.copy[language]!),
      ),
    );
    await stores.live.write(TRANSLATION_KEYS.manifest, JSON.stringify({ timestamp, languages }));
  } catch (error) {
    // The old manifest still names the old keys: the edge shows what it showed. Overrides
    // stored under the new timestamp are named by nothing.
    await stores.versions.release(seq);
    throw error;
  }
  const published = { history: 'copy', version: version.id, author: input.author } as const;
  await announceIfBroken(stores.gate, gate, published, input.now);
  logLine({
    event: 'copy_published',
    version: version.id,
    seq,
    base: input.base,
    author: input.author,
    source: input.source,
    restores: input.restores,
    break_glass: breakGlass === undefined ? undefined : true,
    timestamp,
    changes: diffCopy(before, version.copy).length,
    note: input.note.slice(0, 200),
  });
  return { kind: 'published', version: copySummaryOf(version), copy: version.copy };
}

/** Publishes an earlier copy version's overrides again, as a new version on top of `base`. */
export async function rollbackCopy(
  stores: CopyStores,
  input: Omit<CopyPublishInput, 'copy' | 'source' | 'restores'> & { seq: number },
): Promise<CopyPublishOutcome | { kind: 'unknown_version' }> {
  const earlier = await stores.versions.get(input.seq);
  if (!earlier) return { kind: 'unknown_version' };
  return publishCopy(stores, {
    ...input,
    copy: earlier.copy,
    source: 'rollback',
    restores: input.seq,
    note: input.note || `roll back to ${earlier.id}`,
  });
}
