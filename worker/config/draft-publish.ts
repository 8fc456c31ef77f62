import type { ConfigDocument } from '../../shared/console-api/config';
import type { ApprovalReason } from '../../shared/console-api/draft';
import type { VersionSummary } from '../../shared/console-api/versions';
import type { Bindings } from '../env';
import { approvalIsRequired } from './approval';
import { sameJson } from './diff';
import { draftStoresOf } from './draft-store';
import { type PublishOutcome, type PublishStores, previewPublish } from './publish';

/**
 * A publish from the shared draft (worker/console/draft-route.ts): who approved it, and whether
 * it may go out without an approval. With PUBLISH_APPROVAL `required`, a publish whose changes
 * move traffic or money (./approval.ts) is refused unless it publishes exactly the newest draft
 * revision, approved: an approval is never read from the body, and an approval of an earlier
 * revision, or of this one with another document, counts for nothing. The console reads the
 * request and answers the refusal; the rules are the config's.
 */

/** What the console's publish asks: the draft revision it names, if any, and its document. */
export interface DraftPublish {
  /** The `draft` revision the body names, when it names one. */
  revision: number | undefined;
  document: unknown;
  base: number | null;
}

/**
 * The approver of the publish and the note the review was asked with; or why it may not go out:
 * the document's own refusal (invalid, a conflict), or the changes that need an approval.
 */
export type PublishApproval =
  | { ok: true; approver?: string; reviewNote?: string }
  | { ok: false; refused: Exclude<PublishOutcome, { kind: 'published' }> }
  | { ok: false; approvalRequired: ApprovalReason[] };

/**
 * Who approved the publish (its `draft` revision, approved, with this very document), or its
 * refusal when approval is required and its changes need it.
 */
export async function approvalOfPublish(
  env: Bindings,
  stores: PublishStores,
  { revision, document, base }: DraftPublish,
): Promise<PublishApproval> {
  const newest = revision ? await draftStoresOf(env).drafts.newest() : null;
  const review =
    newest !== null && newest.revision === revision && sameJson(newest.document, document)
      ? newest.review
      : null;
  if (review?.approvedBy !== undefined) {
    return { ok: true, approver: review.approvedBy, reviewNote: review.note };
  }
  if (!approvalIsRequired(env.PUBLISH_APPROVAL)) return { ok: true };
  const preview = await previewPublish(stores, base, document);
  if (preview.kind !== 'preview') return { ok: false, refused: preview };
  if (preview.approval.length === 0) return { ok: true };
  return { ok: false, approvalRequired: preview.approval };
}

/**
 * After a publish from the draft's newest revision: the draft starts again from what is now
 * live, with no editor and no review, unless someone saved on it meanwhile.
 */
export async function restartDraft(
  env: Bindings,
  revision: number | undefined,
  published: { version: VersionSummary; document: ConfigDocument },
  author: string,
  at: Date,
): Promise<void> {
  if (!revision) return;
  const { split, flows, routing, experiments, content } = published.document;
  await draftStoresOf(env).drafts.claim({
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
