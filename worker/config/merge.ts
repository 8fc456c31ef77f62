import type { ConfigDocument } from '../../shared/console-api/config';
import { isRecord, isStamped, sameJson } from './diff';

/**
 * Two marketers' edits of the shared draft made from the same revision (worker/console/
 * draft-route.ts), put together: a three-way merge against the revision both started from. What
 * only one of them changed is kept; where both changed the same field differently, the merge
 * cannot choose and names the place (a clash), and the second save is refused with it. Objects
 * merge key by key (a variant, a flow, an experiment, a screen's content); lists of entries with
 * an `id` (the routes) merge entry by entry, kept in the order the one who reordered them chose;
 * other lists (a flow's screens) are one value. What a publish stamps (a version, a phase) never
 * clashes.
 */

type Json = unknown;

/** The merged document, and the paths both edits changed differently (empty: it merged). */
export interface Merged {
  document: ConfigDocument;
  clashes: string[];
}

/** Your edit (`ours`) and theirs, both made from `ancestor`, as one document and its clashes. */
export function mergeDocuments(
  ancestor: ConfigDocument,
  ours: ConfigDocument,
  theirs: ConfigDocument,
): Merged {
  const clashes: string[] = [];
  const document = mergeValues(ancestor, ours, theirs, '', clashes) as ConfigDocument;
  return { document, clashes };
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

function mergeValues(base: Json, ours: Json, theirs: Json, path: string, clashes: string[]): Json {
  // A version or phase: stamped again by the next publish, so the newer draft's is as good.
  if (sameJson(ours, theirs) || isStamped(path)) return theirs;
  if (sameJson(base, ours)) return theirs;
  if (sameJson(base, theirs)) return ours;
  if (isRecord(ours) && isRecord(theirs) && (base === undefined || isRecord(base))) {
    return mergeRecords(base ?? {}, ours, theirs, path, clashes);
  }
  const entries = [base ?? [], ours, theirs];
  if (entries.every(isEntryList)) {
    return mergeEntries(entries[0] as Entry[], ours as Entry[], theirs as Entry[], path, clashes);
  }
  clashes.push(path);
  return ours;
}

function mergeRecords(
  base: Record<string, Json>,
  ours: Record<string, Json>,
  theirs: Record<string, Json>,
  path: string,
  clashes: string[],
): Record<string, Json> {
  const keys = [...Object.keys(theirs), ...Object.keys(ours).filter((key) => !(key in theirs))];
  const merged: Record<string, Json> = {};
  for (const key of keys) {
    const value = mergeValues(base[key], ours[key], theirs[key], join(path, key), clashes);
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

type Entry = Record<string, Json> & { id: string };

/** A list of objects each with its own `id`, none twice: the routes. */
function isEntryList(value: Json): boolean {
  if (!Array.isArray(value)) return false;
  const ids = value.map((entry) => (isRecord(entry) ? entry.id : undefined));
  return ids.every((id) => typeof id === 'string') && new Set(ids).size === ids.length;
}

function mergeEntries(
  base: Entry[],
  ours: Entry[],
  theirs: Entry[],
  path: string,
  clashes: string[],
): Json {
  const idsOf = (list: Entry[]) => list.map((entry) => entry.id);
  const [baseIds, ourIds, theirIds] = [idsOf(base), idsOf(ours), idsOf(theirs)];
  // Added, removed or moved by one of them: that one's order; by both differently, a clash.
  const ourOrder = !sameJson(baseIds, ourIds);
  const theirOrder = !sameJson(baseIds, theirIds);
  if (ourOrder && theirOrder && !sameJson(ourIds, theirIds)) {
    clashes.push(path);
    return ours;
  }
  const order = ourOrder ? ourIds : theirIds;
  const byId = (list: Entry[], id: string) => list.find((entry) => entry.id === id);
  const merged: Json[] = [];
  for (const id of order) {
    const at = join(path, id);
    const value = mergeValues(byId(base, id), byId(ours, id), byId(theirs, id), at, clashes);
    if (value !== undefined) merged.push(value);
  }
  // Removed by one, changed by the other: a clash, which the order alone would hide.
  for (const id of baseIds.filter((id) => !order.includes(id))) {
    mergeValues(byId(base, id), byId(ours, id), byId(theirs, id), join(path, id), clashes);
  }
  return merged;
}
