import { reviewDraft } from './stores/publishing';
import { $review } from './stores/review';

/** The review panel's heading, where focus goes when the review has nothing to publish. */
export const REVIEW_TITLE_ID = 'review-title';

/**
 * After a dialog put its change in the draft: the worker checks the draft as "Review changes"
 * does, and focus goes to the publish note when it can be published, else to the review's answer.
 * Publishing stays the marketer's own step, through the same review and publish as every edit.
 */
export async function reviewAndFocusPublish(): Promise<void> {
  await reviewDraft();
  requestAnimationFrame(() => {
    const target =
      $review.get().kind === 'checked' ? document.getElementById('publish-note') : null;
    (target ?? document.getElementById(REVIEW_TITLE_ID))?.focus();
  });
}
