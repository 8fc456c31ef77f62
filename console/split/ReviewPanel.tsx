import type { ExperimentPhaseChange, PhaseChange } from '../../shared/console-api/config';
import { ContentVisualDiff } from '../content/ContentVisualDiff';
import { ChangeList } from '../kit/ChangeList';
import { ConflictNotice } from '../kit/ConflictNotice';
import { ErrorSummary } from '../kit/ErrorSummary';
import { FailureNotice } from '../kit/FailureNotice';
import { fieldLabel } from '../kit/field-errors';
import { ReviewLanguages } from '../kit/LanguageNotes';
import { reviewText } from '../kit/link-plans';
import { PublishNoteForm } from '../kit/PublishNoteForm';
import { REVIEW_TITLE_ID } from '../kit/review-next';
import { useStore } from '../kit/stores/atom';
import { $draft, type Draft } from '../kit/stores/draft';
import { publishDraft, reviewDraft, takeLiveConfig } from '../kit/stores/publishing';
import { $review, type Review, reviewIsCurrent } from '../kit/stores/review';
import { EDIT_STATUS_ID } from '../kit/stores/status';
import { ApprovalGate } from '../team/ApprovalGate';

/** The phase warning of a publish that changes the weights of a running comparison. */
function phaseWarning(phase: PhaseChange): string {
  const reason = phase.reason.replace(/\.$/, '');
  return `Publishing starts phase ${phase.to} of the experiment: ${reason}. Visitors assigned under the old weights are not compared with the new ones.`;
}

/** The same for an experiment of the experiments area, named as the draft names it. */
function experimentPhaseWarning(phase: ExperimentPhaseChange, name: string | undefined): string {
  const reason = phase.reason.replace(/\.$/, '');
  const experiment = name ? `${name} (${phase.experiment})` : phase.experiment;
  return `Publishing starts phase ${phase.to} of ${experiment}: ${reason}. Its results are read per phase; visitors already exposed keep their variant.`;
}

function PublishForm() {
  const review = useStore($review);
  return (
    <PublishNoteForm
      id="publish-note"
      label="Note (optional)"
      action="Publish"
      publishing={review.kind === 'checked' && review.publishing}
      publish={publishDraft}
      statusId={EDIT_STATUS_ID}
    />
  );
}

/** A current review: the diff, the phases it starts, its likely mistakes, then publish. */
type CheckedState = Extract<Review, { kind: 'checked' }>;

function CheckedReview({ review, draft }: { review: CheckedState; draft: Draft | null }) {
  return (
    <div className="review-result">
      <h4>Changes against the live config</h4>
      {review.diff.length === 0 ? (
        <p>No changes: the draft is the live config.</p>
      ) : (
        <ChangeList changes={review.diff} label="Changes this publish makes" />
      )}
      <ContentVisualDiff screens={review.screens} />
      {review.phase ? <p className="notice notice--warning">{phaseWarning(review.phase)}</p> : null}
      {review.experimentPhases.map((phase) => (
        <p className="notice notice--warning" key={phase.experiment}>
          {experimentPhaseWarning(
            phase,
            draft?.document.experiments.experiments[phase.experiment]?.name,
          )}
        </p>
      ))}
      {review.warnings.length > 0 ? (
        <div className="notice notice--warning">
          <p>
            <strong>Likely mistakes</strong> (they do not stop the publish):
          </p>
          <ul>
            {review.warnings.map((warning) => (
              <li key={`${warning.path}:${warning.message}`}>
                {fieldLabel(warning.path)}: {warning.message}{' '}
                <code className="muted">{warning.path}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ReviewLanguages notes={review.languages} />
      {review.linkPlans.length > 0 ? (
        <div className="notice notice--warning">
          <p>
            <strong>Plans anyone with a link can get</strong> (they do not stop the publish):
          </p>
          <ul aria-label="Routes whose plans anyone with the link gets">
            {review.linkPlans.map((notice) => (
              <li key={notice.route}>{reviewText(notice)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {review.diff.length > 0 ? (
        <ApprovalGate approval={review.approval}>
          <PublishForm />
        </ApprovalGate>
      ) : null}
    </div>
  );
}

function ReviewResult() {
  const review = useStore($review);
  const draft = useStore($draft);
  const current = reviewIsCurrent(review, draft);
  switch (review.kind) {
    case 'idle':
      return null;
    case 'checking':
      return <p className="muted">Checking the draft…</p>;
    case 'invalid':
      return <ErrorSummary errors={review.errors} />;
    case 'conflict':
      return (
        <ConflictNotice
          head={review.head}
          changes={review.changes}
          action="Nothing was published."
          onTakeLive={takeLiveConfig}
        />
      );
    case 'failed':
      return <FailureNotice message={review.message} />;
    case 'checked':
      if (!current) {
        return (
          <p className="notice">
            You changed the draft after this review. Review it again to publish.
          </p>
        );
      }
      return <CheckedReview review={review} draft={draft} />;
  }
}

/** The draft checked by the worker's own validator, with its diff, then published. */
export function ReviewPanel() {
  const review = useStore($review);
  return (
    <div className="block">
      <h3 id={REVIEW_TITLE_ID} tabIndex={-1}>
        Review and publish
      </h3>
      <p className="muted">
        The worker checks the draft with the same validator as{' '}
        <code>npm run config -- validate</code> and shows what would change. Nothing is written
        until you publish.
      </p>
      <button
        type="button"
        className="button button--primary"
        aria-disabled={review.kind === 'checking' || undefined}
        onClick={() => {
          if (review.kind !== 'checking') void reviewDraft();
        }}
      >
        Review changes
      </button>
      <ReviewResult />
    </div>
  );
}
