import type { ConfigDocument } from '../../shared/console-api/config';
import type { VersionSummary } from '../../shared/console-api/versions';
import { approvalIsRequired } from '../config/approval';
import { sameJson } from '../config/diff';
import { type PublishStores, previewPublish } from '../config/publish';
import type { Bindings } from '../env';
import type { Answer } from '../http/answer';
import { consoleError } from '../http/console-errors';
import { draftStores } from './draft-route';
import { refusedAnswer, revisionOf } from './publish-request';

/**
 * A publish from the shared draft (worker/console/draft-route.ts): who approved it, and whether
 * it may go out without an approval. With PUBLISH_APPROVAL `required`, a publish whose changes
 * move traffic or money (worker/config/approval.ts) is refused unless it publishes exactly the
 * newest draft revision, approved: an approval is never read from the body, and an approval of
 * an earlier revision, or of this one with another document, counts for nothing.
 */

/**
 * The approver of the publish and the note the review was asked with, or the refusal to answer
 * instead.
 */
export type PublishApproval =
  | { ok: true; approver?: string; reviewNote?: string }
  | { ok: false; refused: Response };

/**
 * Who approved the publish in `body` (its `draft` revision, approved, with this very document),
 * or its refusal when approval is required and its changes need it.
 */
export async function approvalOfPublish(
  c: Answer,
  env: Bindings,
  stores: PublishStores,
  body: Record<string, unknown>,
  base: number | null,
): Promise<PublishApproval> {
  const revision = revisionOf(body.draft);
  const newest = revision ? await draftStores(env).drafts.newest() : null;
  const review =
    newest !== null && newest.revision === revision && sameJson(newest.document, body.document)
      ? newest.review
      : null;
  if (review?.approvedBy !== undefined) {
    return { ok: true, approver: review.approvedBy, reviewNote: review.note };
  }
  if (!approvalIsRequired(env.PUBLISH_APPROVAL)) return { ok: true };
  const preview = await previewPublish(stores, base, body.document);
  if (preview.kind !== 'preview') return { ok: false, refused: refusedAnswer(c, preview) };
  if (preview.approval.length === 0) return { ok: true };
  c.get('logFields').approval = preview.approval.map((reason) => reason.path).join(',');
  return { ok: false, refused: consoleError(c, 403, 'approval_required') };
}

/**
 * After a publish from the draft's newest revision: the draft starts again from what is now
 * live, with no editor and no review, unless someone saved on it meanwhile.
 */
export async function restartDraft(
  env: Bindings,
  body: Record<string, unknown>,
  published: { version: VersionSummary; document: ConfigDocument },
  author: string,
  at: Date,
): Promise<void> {
  const revision = revisionOf(body.draft);
  if (!revision) return;
  const { split, flows, routing, experiments, content } = published.document;
  await draftStores(env).drafts.claim({
    revision: revision + 1,
    base: published.version.seq,
    // In the order the console reads what is live (ConsoleState.live), so it shows no edit.
    document: { split, flows, routing, experiments, content },
    pausedWeights: {},
    editors: [],
    editedBy: author,
    at: at.toISOString(),
    review: null,
  });
}
