import { ChangeList } from '../kit/ChangeList';
import { FailureNotice } from '../kit/FailureNotice';
import { PublishNoteForm } from '../kit/PublishNoteForm';
import { useStore } from '../kit/stores/atom';
import { $sharedDraft } from '../kit/stores/shared-draft';
import {
  $copyEdits,
  $copyReview,
  COPY_STATUS_ID,
  copyReviewIsCurrent,
  loadCopy,
  publishCopyDraft,
  reviewCopy,
} from './stores/copy';

function PublishCopyForm() {
  const review = useStore($copyReview);
  const shared = useStore($sharedDraft);
  return (
    <PublishNoteForm
      id="copy-publish-note"
      label="Copy note (optional)"
      action="Publish copy"
      publishing={review.kind === 'checked' && review.publishing}
      publish={publishCopyDraft}
      statusId={COPY_STATUS_ID}
      gated={shared.kind === 'shared' && shared.approvalRequired}
    />
  );
}

function CopyReviewResult() {
  const review = useStore($copyReview);
  useStore($copyEdits);
  switch (review.kind) {
    case 'idle':
      return null;
    case 'checking':
      return <p className="muted">Checking the copy…</p>;
    case 'invalid':
      return (
        <div className="notice notice--error" role="alert">
          <p>
            <strong>The worker refuses this copy;</strong> nothing was published.
          </p>
          <ul>
            {review.errors.map((error) => (
              <li key={`${error.path}:${error.message}`}>
                <code>{error.path.replace(/^copy\./, '')}</code>: {error.message}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'conflict':
      return (
        <div className="notice notice--error" role="alert">
          <p>
            <strong>
              {review.head.id} was published by {review.head.author} meanwhile;
            </strong>{' '}
            nothing was published.
          </p>
          <ChangeList changes={review.changes} label={`Changes in ${review.head.id}`} />
          <button type="button" className="button" onClick={() => void loadCopy()}>
            Load {review.head.id} (drops your copy edits)
          </button>
        </div>
      );
    case 'failed':
      return <FailureNotice message={review.message} />;
    case 'checked':
      if (!copyReviewIsCurrent(review)) {
        return (
          <p className="notice">
            You changed the copy after this review. Review it again to publish.
          </p>
        );
      }
      return (
        <div className="review-result">
          <h4>Copy changes against what is live</h4>
          <ChangeList changes={review.diff} label="Copy changes this publish makes" />
          {review.diff.length > 0 ? <PublishCopyForm /> : null}
        </div>
      );
  }
}

/** The copy edits checked by the worker's validator, with their diff, then published. */
export function CopyReview({ count }: { count: number }) {
  const review = useStore($copyReview);
  return (
    <div className="block">
      <h3>Review and publish copy</h3>
      <p className="muted">
        The worker checks every text with the same rules as <code>npm run translations</code> (known
        keys, placeholders and plural forms kept). Each publish is a copy version in the History,
        which can be rolled back.
      </p>
      <button
        type="button"
        className="button button--primary"
        aria-disabled={review.kind === 'checking' || count === 0 || undefined}
        onClick={() => {
          if (review.kind !== 'checking' && count > 0) void reviewCopy();
        }}
      >
        Review copy changes ({count})
      </button>
      <CopyReviewResult />
    </div>
  );
}
