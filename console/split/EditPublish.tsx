import type { ConsoleState } from '../../shared/console-api/config';
import { withComposedChoices } from '../kit/composed-screens';
import { StatusLine } from '../kit/StatusLine';
import { useStore } from '../kit/stores/atom';
import { $draft, discardEdits, useHasEdits } from '../kit/stores/draft';
import { $editStatus, EDIT_STATUS_ID } from '../kit/stores/status';
import { SharedDraftBar } from '../team/SharedDraftBar';
import { AddFlow } from './AddFlow';
import { AddVariant } from './AddVariant';
import { ExperimentFields } from './ExperimentFields';
import { FlowsEditor } from './FlowsEditor';
import { ReviewPanel } from './ReviewPanel';
import { SplitRoutes } from './SplitRoutes';
import { VariantsEditor } from './VariantsEditor';

/** The draft: weights, variants and flows, then the review against the live config and publish. */
export function EditPublish({ state }: { state: ConsoleState }) {
  const draft = useStore($draft);
  const hasEdits = useHasEdits();
  const status = useStore($editStatus);
  if (!draft) return null;
  return (
    <section className="section" id="edit" aria-labelledby="edit-title">
      <h2 id="edit-title">Edit and publish</h2>
      <p className="muted">
        Edits stay in the draft until you review and publish them. Each publish is a new version of
        the config; the funnel uses it within seconds.
      </p>
      <StatusLine id={EDIT_STATUS_ID} status={status} />
      <SharedDraftBar />
      {hasEdits ? (
        <p className="notice">
          You have edits that are not published.{' '}
          <button type="button" className="button button--quiet" onClick={discardEdits}>
            Discard edits
          </button>
        </p>
      ) : null}
      <VariantsEditor document={draft.document} pausedWeights={draft.pausedWeights} />
      <AddVariant document={draft.document} />
      <SplitRoutes document={draft.document} />
      <FlowsEditor
        document={draft.document}
        choices={withComposedChoices(state.screens, draft.document.content)}
      />
      <AddFlow document={draft.document} />
      <ExperimentFields settings={draft.document.split.experiment} />
      <ReviewPanel />
    </section>
  );
}
