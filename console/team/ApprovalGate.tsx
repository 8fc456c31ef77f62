import { type FormEvent, type ReactNode, useState } from 'react';
import type { ApprovalReason, DraftReview } from '../../shared/console-api/draft';
import { fieldLabel } from '../kit/field-errors';
import { useStore } from '../kit/stores/atom';
import { $live } from '../kit/stores/live';
import { noteOf } from '../kit/stores/notes';
import {
  $sharedDraft,
  approveDraft,
  refreshSharedDraft,
  requestReview,
} from '../kit/stores/shared-draft';
import { timeText } from '../kit/time-text';

/**
 * The review's last step when the worker requires a second person's approval (PUBLISH_APPROVAL,
 * docs/operate.md) and the draft changes what visitors get: what needs it, then sending the draft
 * for review, approving it (anyone but its editors), and only once approved, `children` (the
 * publish). Without that setting, or with no such change, `children` alone.
 */
export function ApprovalGate(props: {
  approval: { required: boolean; reasons: ApprovalReason[] };
  children: ReactNode;
}) {
  const { approval, children } = props;
  const shared = useStore($sharedDraft);
  const live = useStore($live);
  if (!approval.required || approval.reasons.length === 0) return children;
  const me = live.kind === 'ready' ? live.state.author : '';
  const review = shared.kind === 'shared' ? shared.review : null;
  const editors = shared.kind === 'shared' ? shared.editors : [];
  return (
    <div className="block">
      <div className="notice notice--warning">
        <p>
          <strong>A second person approves this publish first:</strong> it changes what visitors
          get.
        </p>
        <ul aria-label="Changes that need approval">
          {approval.reasons.map((reason) => (
            <li key={reason.path}>
              {fieldLabel(reason.path)}: {reason.reason}{' '}
              <code className="muted">{reason.path}</code>
            </li>
          ))}
        </ul>
      </div>
      {shared.kind === 'local' ? (
        <p className="notice notice--error">
          The worker keeps no shared draft here, so nobody else can approve it.
        </p>
      ) : review?.approvedBy ? (
        <>
          <p role="status">
            Approved by <strong>{review.approvedBy}</strong>
            {review.approvedAt ? `, ${timeText(review.approvedAt)}` : ''}. It can be published.
          </p>
          {children}
        </>
      ) : review ? (
        <Requested review={review} mine={review.requestedBy === me || editors.includes(me)} />
      ) : (
        <RequestForm />
      )}
      {shared.kind === 'shared' && shared.failure ? (
        <p className="notice notice--error" role="alert">
          {shared.failure}
        </p>
      ) : null}
    </div>
  );
}

/** A review asked for: waiting, for one of the draft's editors; an approval, for anyone else. */
function Requested({ review, mine }: { review: DraftReview; mine: boolean }) {
  const note = review.note ? `: “${review.note}”` : '.';
  if (mine) {
    return (
      <p>
        Sent for review by {review.requestedBy}
        {note} Waiting for someone who did not edit it to approve.{' '}
        <button type="button" className="button" onClick={() => void refreshSharedDraft()}>
          Check for an approval
        </button>
      </p>
    );
  }
  return (
    <p>
      <strong>{review.requestedBy}</strong> asks you to approve this draft{note}{' '}
      <button type="button" className="button button--primary" onClick={() => void approveDraft()}>
        Approve this draft
      </button>
    </p>
  );
}

/** The note for the reviewer, kept across the review being drawn anew (../kit/stores/notes.ts). */
const $reviewNote = noteOf('review-note');

function RequestForm() {
  const note = useStore($reviewNote);
  const [sending, setSending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    if (await requestReview($reviewNote.get().trim())) $reviewNote.set('');
    setSending(false);
  }
  return (
    <form className="publish" onSubmit={onSubmit}>
      <label htmlFor="review-note">Note for the reviewer (optional)</label>
      <input
        id="review-note"
        className="input"
        maxLength={500}
        placeholder="What to look at"
        value={note}
        onChange={(event) => $reviewNote.set(event.target.value)}
      />
      <button type="submit" className="button button--primary" aria-disabled={sending || undefined}>
        {sending ? 'Sending…' : 'Send for review'}
      </button>
    </form>
  );
}
