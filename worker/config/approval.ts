import type { ConfigDocument } from '../../shared/console-api/config';
import type { ApprovalReason } from '../../shared/console-api/draft';
import type { Change } from '../../shared/console-api/versions';

/**
 * Which changes of a publish need a second person's approval when the worker's PUBLISH_APPROVAL
 * is `required` (docs/operate.md): every change to what visitors get, decided from the publish's
 * diff (worker/config/diff.ts), each with why. Traffic: the split's weights, variants, default
 * and routes; any route, audience, layer seed or the holdout; an experiment started, ended or rolled out, and
 * any edit of one visitors are in (its weights, range, audience, coverage, ramp). Money:
 * currencies and plans wherever they are. What visitors see: flows, content and the rest of the
 * split. Where the alerts go, as a break-glass publish is announced there (./gate.ts). Only an
 * experiment's name, hypothesis, notes and metrics, the split's results settings, and any edit of
 * an experiment no visitor is in, publish without approval. The copy's changes are all of what visitors read (copyApprovalReasons).
 */

const MOVES_TRAFFIC = 'moves traffic';
const MOVES_MONEY = 'moves money';
const STARTS_OR_ENDS = 'starts or ends an experiment';
const CHANGES_WHAT_VISITORS_SEE = 'changes what visitors see';
const MOVES_ALERTS = 'changes where alerts go';

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
  if (/^experiments\.(holdout|layers)(\.|$)/.test(path)) return MOVES_TRAFFIC;
  // How the split's results are read (its primary metric, its planned sample): no visitor's.
  if (/^split\.experiment(\.|$)/.test(path)) return null;
  if (/^experiments\.alerts(\.|$)/.test(path)) return MOVES_ALERTS;
  if (EXPERIMENT.test(path)) return experimentReason(change, before, after);
  // The whole experiments section (the first publish): any experiment visitors would be in.
  if (path === 'experiments' || path === 'experiments.experiments') {
    return [before, after].some((document) =>
      Object.values(document?.experiments.experiments ?? {}).some((e) => SERVING.has(e.status)),
    )
      ? STARTS_OR_ENDS
      : null;
  }
  // The rest of the document is what visitors see: flows, content, the split's other fields.
  return path.startsWith('experiments') ? null : CHANGES_WHAT_VISITORS_SEE;
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

/** The copy's changes: every one is a text visitors read. */
export function copyApprovalReasons(diff: readonly Change[]): ApprovalReason[] {
  return diff.map((change) => ({ path: change.path, reason: 'changes what visitors read' }));
}

/** Whether this worker requires approval: PUBLISH_APPROVAL is exactly `required`. */
export function approvalIsRequired(setting: string | undefined): boolean {
  return setting?.trim() === 'required';
}
