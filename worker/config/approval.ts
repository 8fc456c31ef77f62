import type { ConfigDocument } from '../../shared/console-api/config';
import type { ApprovalReason } from '../../shared/console-api/draft';
import type { Change } from '../../shared/console-api/versions';

/**
 * Which changes of a publish need a second person's approval when the worker's PUBLISH_APPROVAL
 * is `required` (docs/operate.md): those that move traffic or money, decided from the publish's
 * diff (worker/config/diff.ts). Traffic: the split's weights, variants, default and routes; any
 * route or audience; an experiment started, ended or rolled out, and any edit of one visitors are
 * in (its weights, range, audience, coverage). Money: currencies and plans wherever they are.
 * Copy, content, flows and an experiment's name, notes or metrics publish without approval.
 */

const MOVES_TRAFFIC = 'moves traffic';
const MOVES_MONEY = 'moves money';
const STARTS_OR_ENDS = 'starts or ends an experiment';

/** An experiment's statuses in which visitors are drawn into it or get its winner. */
const SERVING = new Set(['running', 'paused', 'shipped']);

/** An experiment's fields that describe it and move no visitor. */
const DESCRIPTIVE = new Set(['name', 'hypothesis', 'notes', 'metrics']);

const SPLIT_TRAFFIC = /^split\.(defaultVariant|routes|variants$|variants\.[^.]+(\.weight)?$)/;
const EXPERIMENT = /^experiments\.experiments\.([^.]+)(?:\.([^.]+))?/;

function statusOf(document: ConfigDocument | null, id: string): string | undefined {
  return document?.experiments.experiments[id]?.status;
}

function experimentReason(
  change: Change,
  before: ConfigDocument | null,
  after: ConfigDocument,
): string | null {
  const [, id = '', field] = EXPERIMENT.exec(change.path) ?? [];
  const statuses = [statusOf(before, id), statusOf(after, id)];
  if (field === 'status') return STARTS_OR_ENDS;
  const serving = statuses.some((status) => status !== undefined && SERVING.has(status));
  if (!serving) return null;
  if (field === undefined) return STARTS_OR_ENDS;
  return DESCRIPTIVE.has(field) ? null : MOVES_TRAFFIC;
}

function reasonOf(
  change: Change,
  before: ConfigDocument | null,
  after: ConfigDocument,
): string | null {
  const { path } = change;
  if (/(^|\.)(plans|currencies)(\.|$)/.test(path)) return MOVES_MONEY;
  // The split as a whole (its first publish), its traffic fields; any route or audience.
  if (path === 'split' || SPLIT_TRAFFIC.test(path) || /^routing(\.|$)/.test(path)) {
    return MOVES_TRAFFIC;
  }
  if (EXPERIMENT.test(path)) return experimentReason(change, before, after);
  // The whole experiments section (the first publish): any experiment visitors would be in.
  if (path === 'experiments' || path === 'experiments.experiments') {
    return [before, after].some((document) =>
      Object.values(document?.experiments.experiments ?? {}).some((e) => SERVING.has(e.status)),
    )
      ? STARTS_OR_ENDS
      : null;
  }
  return null;
}

/** The changes of `diff` (from `before` to `after`) that need approval, each with why. */
export function approvalReasons(
  before: ConfigDocument | null,
  after: ConfigDocument,
  diff: readonly Change[],
): ApprovalReason[] {
  return diff.flatMap((change) => {
    const reason = reasonOf(change, before, after);
    return reason === null ? [] : [{ path: change.path, reason }];
  });
}

/** Whether this worker requires approval: PUBLISH_APPROVAL is exactly `required`. */
export function approvalIsRequired(setting: string | undefined): boolean {
  return setting?.trim() === 'required';
}
