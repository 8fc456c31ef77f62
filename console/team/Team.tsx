import { PageLink } from '../kit/PageLink';
import { useStore } from '../kit/stores/atom';
import { $history } from '../kit/stores/history';
import { $sharedDraft } from '../kit/stores/shared-draft';
import { timeText } from '../kit/time-text';
import { ToolsAndAgents } from './ToolsAndAgents';
import { peopleOf, workText } from './team-text';

/**
 * The team (docs/marketers.md, "Working as a team"): who works on the draft now, whose review
 * waits for whom, who published, asked for reviews and approved in the versions the history
 * lists, and the tools and agents working with a token. People sign in through Cloudflare Access
 * (docs/operate.md), which is where a person is added or removed; the console shows what they
 * did.
 */
export function Team() {
  return (
    <>
      <section className="section" aria-labelledby="team-title">
        <h2 id="team-title">Team</h2>
        <p className="muted">
          Everyone with console access works on one shared draft; a change that moves traffic or
          money is published once someone who did not edit it approves it.
        </p>
        <DraftNow />
        <People />
      </section>
      <ToolsAndAgents />
    </>
  );
}

/** Who edits the shared draft, who saved it last, and the review it waits for. */
function DraftNow() {
  const draft = useStore($sharedDraft);
  if (draft.kind === 'local') {
    return <p>This worker keeps no shared draft: each person's edits stay in their own tab.</p>;
  }
  const { editors, editedBy, at, review } = draft;
  return (
    <section className="block" aria-labelledby="team-draft">
      <h3 id="team-draft">The draft now</h3>
      {editors.length === 0 ? (
        <p>Nobody has edited the draft since the last publish.</p>
      ) : (
        <p>
          Edited by {editors.join(', ')}
          {editedBy && at ? (
            <>
              ; last saved by {editedBy}, <time dateTime={at}>{timeText(at)}</time>
            </>
          ) : null}
          .
        </p>
      )}
      {review === null ? null : review.approvedBy ? (
        <p>
          {review.requestedBy} asked for a review; {review.approvedBy} approved it. It is ready to{' '}
          <PageLink area="publish">publish</PageLink>.
        </p>
      ) : (
        <p>
          {review.requestedBy} asked for a review,{' '}
          <time dateTime={review.at}>{timeText(review.at)}</time>: waiting for someone who did not
          edit it to <PageLink area="publish">approve it</PageLink>.
        </p>
      )}
    </section>
  );
}

/** Who did what in the versions the history lists. */
function People() {
  const history = useStore($history);
  if (history.kind !== 'ready') return null;
  const people = peopleOf(history.versions);
  return (
    <section className="block" aria-labelledby="team-people">
      <h3 id="team-people">Who published</h3>
      {people.length === 0 ? (
        <p>Nothing has been published from the console yet.</p>
      ) : (
        <ul aria-labelledby="team-people">
          {people.map((person) => (
            <li key={person.who}>
              <strong>{person.who}</strong>: {workText(person)}; last{' '}
              <time dateTime={person.last}>{timeText(person.last)}</time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
