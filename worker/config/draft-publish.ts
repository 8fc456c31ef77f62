import type { ConfigDocument } from '../../shared/console-api/config';
import type { VersionSummary } from '../../shared/console-api/versions';
import type { Bindings } from '../env';
import { sameJson } from './diff';
import { draftStoresOf } from './draft-store';

/** The note a review of the draft's `revision` was asked with, when it is still the newest. */
export async function reviewNoteOf(
  env: Bindings,
  revision: number | undefined,
  document: unknown,
): Promise<string> {
  if (!revision) return '';
  const newest = await draftStoresOf(env).drafts.newest();
  if (newest?.revision !== revision || !sameJson(newest.document, document)) return '';
  return newest.review?.note ?? '';
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
