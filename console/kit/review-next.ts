import { openPage } from './stores/page';
import { reviewDraft } from './stores/publishing';
import { $review } from './stores/review';
import { $editStatus } from './stores/status';

/** The review panel's heading, where focus goes when the review has nothing to publish. */
export const REVIEW_TITLE_ID = 'review-title';

/**
 * After a dialog put its change in the draft: the worker checks the draft as "Review changes"
 * does, the publish page opens saying `done` (what the dialog did) on its status line, and focus
 * goes to the publish note when it can be published, else to the review's answer.
 * Publishing stays the marketer's own step, through the same review and publish as every edit.
 */
export async function reviewAndFocusPublish(done: string): Promise<void> {
  await reviewDraft();
  // What the dialog did, on the status line of the page the marketer is taken to.
  $editStatus.set(done);
  // The review is on the publish page: the marketer is taken there, as "Review and publish".
  openPage('publish', null, $review.get().kind === 'checked' ? 'publish-note' : REVIEW_TITLE_ID);
}
