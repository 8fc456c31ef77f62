import type { ConfigDocument } from '../../shared/console-api/config';
import type { Change } from '../../shared/console-api/versions';

/**
 * What a publish changes, field by field (`split.variants.lp1.weight: 50 → 30`), for the console's
 * review, its history and a conflict's explanation. A flow's screen list is one value: a marketer
 * reads `[a, b, c] → [a, c]` more easily than three index changes. The `version` and `phase`
 * fields are left out (the split's and each experiment's): a publish sets them itself.
 */
export function diffDocuments(before: ConfigDocument | null, after: ConfigDocument): Change[] {
  const changes: Change[] = [];
  diffValues(before?.split, after.split, 'split', changes);
  diffValues(before?.flows, after.flows, 'flows', changes);
  diffValues(before?.routing, after.routing, 'routing', changes);
  diffValues(before?.experiments, after.experiments, 'experiments', changes);
  // Screen by screen: a document from before the content section had none, which is no change.
  diffValues(
    before?.content?.screens ?? {},
    after.content?.screens ?? {},
    'content.screens',
    changes,
  );
  return changes;
}

/** Stamped by every publish, so never a marketer's change: each version, the phases. */
const STAMPED = new Set([
  'split.version',
  'split.phase',
  'flows.version',
  'routing.version',
  'experiments.version',
]);

/**
 * What a publish stamps on an experiment (worker/experiments/config/phases.ts stampPublish): its
 * phase, like the split's, and when it started and ended (`experiments.experiments.pw-us.phase`).
 */
const EXPERIMENT_PHASE = /^experiments\.experiments\.[^.]+\.(phase|startedAt|endedAt)$/;

/** Whether a publish sets the field at `path` itself (a version, a phase), never a marketer. */
export const isStamped = (path: string) => STAMPED.has(path) || EXPERIMENT_PHASE.test(path);

type Json = unknown;

/** A JSON object (not an array, not null). */
export const isRecord = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function diffValues(before: Json, after: Json, path: string, into: Change[]): void {
  if (isStamped(path)) return;
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    into.push({ path, kind: 'added', after });
    return;
  }
  if (after === undefined) {
    into.push({ path, kind: 'removed', before });
    return;
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((key) => !(key in before))];
    for (const key of keys) diffValues(before[key], after[key], `${path}.${key}`, into);
    return;
  }
  if (!sameJson(before, after)) into.push({ path, kind: 'changed', before, after });
}

/** Whether two JSON values are equal, whatever their objects' key order. */
export function sameJson(a: Json, b: Json): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
    );
  }
  return Object.is(a, b);
}
