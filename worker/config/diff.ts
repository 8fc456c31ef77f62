import { COMPOSED_SCREENS } from '../../screens/composed';
import { screenOfRef } from '../../shared/composed-screens';
import type { ContentDocument } from '../../shared/config/content';
import type { ConfigDocument } from '../../shared/console-api/config';
import type { Change, PlacedSection } from '../../shared/console-api/versions';
import { contentOfRef } from '../../shared/content-body';

/**
 * What a publish changes, field by field (`split.variants.lp1.weight: 50 → 30`), for the console's
 * review, its history and a conflict's explanation. A flow's screen list is one value: a marketer
 * reads `[a, b, c] → [a, c]` more easily than three index changes. The `version` and `phase`
 * fields are left out (the split's and each experiment's), and the starts (`since`): a publish
 * sets them itself.
 *
 * The content is a change like any other (docs/marketers.md "The content
 * editor"): a screen's copy text by text in each language, its sections as one list, a content
 * variant or a composed screen added or removed as one, a brand and a picture.
 */
export function diffDocuments(before: ConfigDocument | null, after: ConfigDocument): Change[] {
  const changes: Change[] = [];
  diffValues(before?.split, after.split, 'split', changes);
  diffValues(before?.flows, after.flows, 'flows', changes);
  diffValues(
    unstampedRouting(before?.routing),
    unstampedRouting(after.routing),
    'routing',
    changes,
  );
  diffValues(before?.experiments, after.experiments, 'experiments', changes);
  // A document from before the content section had none, which is no change.
  diffValues(before?.content ?? {}, after.content ?? {}, 'content', changes);
  return changes.map((change) => withSectionsOver(change, after.content));
}

/**
 * Records of the content that are containers, not values: one missing is empty, so what is put
 * in it is each its own change. A screen in code's content (it is there, in code, before any
 * override), a copy and a copy's language, a screen's list of variants. A composed screen, a
 * variant, a picture and a brand are added or removed whole.
 */
const CONTAINERS = [
  /^content\.(screens|composed|brands)$/,
  /^content\.screens\.[^.]+$/,
  /^content\.(screens|composed)\.[^.]+\.variants$/,
  /^content\.(screens|composed)\.[^.]+(\.variants\.[^.]+)?\.copy(\.[^.]+)?$/,
];

const isContainer = (path: string) => CONTAINERS.some((pattern) => pattern.test(path));

/** A content variant's path, or its section list's: the screen's record, its id. */
const VARIANT = /^content\.(screens|composed)\.([^.]+)\.variants\.[^.]+(\.sections)?$/;

/** A screen's own section list, set where code composed the screen until now. */
const FIRST_ARRANGEMENT = /^content\.(screens|composed)\.([^.]+)\.sections$/;

/** The sections code composes a screen with (a composed screen: the screen it starts from). */
function sectionsInCode(content: ContentDocument, screen: string): PlacedSection[] | undefined {
  const inCode = screenOfRef(content, screen);
  const composition = inCode ? COMPOSED_SCREENS[inCode]?.composition : undefined;
  return composition?.sections.map(({ kind }) => ({ id: kind, visible: true }));
}

/**
 * A change with the sections it is laid over: a variant's, the screen's every visitor sees (as
 * its content lists them, else as code composes it); a screen's first list of its own, code's.
 */
function withSectionsOver(change: Change, content: ContentDocument | undefined): Change {
  if (change.after === undefined || !content) return change;
  const variantOf = VARIANT.exec(change.path)?.[2];
  const arranged = change.kind === 'added' ? FIRST_ARRANGEMENT.exec(change.path)?.[2] : undefined;
  const screen = variantOf ?? arranged;
  if (screen === undefined) return change;
  const own = variantOf === undefined ? undefined : contentOfRef(content, screen)?.sections;
  const sections = own ?? sectionsInCode(content, screen);
  return sections ? { ...change, sectionsOver: sections } : change;
}

/** Stamped by every publish, so never a marketer's change: each version, the phases. */
const STAMPED = new Set([
  'split.version',
  'split.phase',
  'split.since',
  'flows.version',
  'routing.version',
  'experiments.version',
]);

/**
 * What a publish stamps on an experiment (worker/experiments/config/phases.ts stampPublish): its
 * phase, like the split's, and when it started and ended (`experiments.experiments.pw-us.phase`).
 */
const EXPERIMENT_PHASE = /^experiments\.experiments\.[^.]+\.(phase|startedAt|endedAt)$/;

/**
 * When a route was first published (worker/experiments/holdout/holdout-issues.ts), at its path as the
 * merge names it, by route id (`routing.routes.tiktok.since`).
 */
const ROUTE_SINCE = /^routing\.routes\.[^.]+\.since$/;

/** Whether a publish sets the field at `path` itself (a version, a phase), never a marketer. */
export const isStamped = (path: string) =>
  STAMPED.has(path) || EXPERIMENT_PHASE.test(path) || ROUTE_SINCE.test(path);

/** The routing section without its routes' `since`: the route list is one value in a diff. */
function unstampedRouting(routing: ConfigDocument['routing'] | undefined) {
  return (
    routing && { ...routing, routes: routing.routes.map(({ since: _since, ...route }) => route) }
  );
}

type Json = unknown;

/** A JSON object (not an array, not null). */
export const isRecord = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function diffValues(before: Json, after: Json, path: string, into: Change[]): void {
  if (isStamped(path)) return;
  if (before === undefined && after === undefined) return;
  if (isContainer(path)) {
    if (before === undefined && isRecord(after)) before = {};
    if (after === undefined && isRecord(before)) after = {};
  }
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
