import { ChangeList } from '../kit/ChangeList';
import { fieldLabel } from '../kit/field-errors';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { $live } from '../kit/stores/live';
import { takeLiveConfig } from '../kit/stores/publishing';
import {
  $sharedDraft,
  type DraftClash,
  keepMine,
  type SaveState,
  takeTheirs,
} from '../kit/stores/shared-draft';
import { timeText } from '../kit/time-text';

/**
 * Where the team's draft stands (console/kit/stores/shared-draft.ts): saved for everyone with
 * console access, saving, or refused because someone else changed the same places meanwhile,
 * with the choice between their draft and yours (docs/marketers.md, "Working as a team").
 */
export function SharedDraftBar() {
  const state = useStore($sharedDraft);
  if (state.kind === 'local') {
    return (
      <p className="muted">
        This draft is kept in this tab only: the worker keeps no shared draft. Publish before you
        close the page.
      </p>
    );
  }
  const saved =
    state.editedBy && state.at ? (
      <>
        {' '}
        Last saved by {state.editedBy}, <time dateTime={state.at}>{timeText(state.at)}</time>.
      </>
    ) : null;
  return (
    <section className="block" aria-label="Shared draft">
      <p className="muted" role="status">
        {SAVING_TEXTS[state.saving]}
        {state.saving === 'saved' ? saved : null}
      </p>
      {state.failure ? (
        <p className="notice notice--error" role="alert">
          {state.failure}
        </p>
      ) : null}
      {state.merged.length > 0 ? (
        <details className="details">
          <summary>Merged with others' edits ({state.merged.length})</summary>
          <ChangeList changes={state.merged} label="Others' edits merged into your draft" />
        </details>
      ) : null}
      {state.clash ? <ClashNotice clash={state.clash} /> : null}
      <StaleNotice />
    </section>
  );
}

const SAVING_TEXTS: Record<SaveState, string> = {
  saved: 'Shared draft: everyone with console access sees these edits.',
  waiting: 'Shared draft: your edits are saved in a moment…',
  saving: 'Shared draft: saving…',
  failed: 'Shared draft: your last edits are not saved.',
};

function ClashNotice({ clash }: { clash: DraftClash }) {
  const { draft } = clash;
  return (
    <div className="notice notice--error" role="alert">
      <p>
        <strong>
          {draft.editedBy} saved the draft since you started editing ({timeText(draft.at)}); your
          last edits are not saved.
        </strong>
      </p>
      <p>Their changes:</p>
      <ChangeList changes={clash.theirs} label={`Changes ${draft.editedBy} saved`} />
      {clash.clashes.length > 0 ? (
        <>
          <p>You both changed:</p>
          <ul aria-label="Places you both changed">
            {clash.clashes.map((path) => (
              <li key={path}>
                {fieldLabel(path)} <code className="muted">{path}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <button type="button" className="button" onClick={takeTheirs}>
        Take their draft (drops your edits)
      </button>{' '}
      <button type="button" className="button" onClick={() => void keepMine()}>
        Keep mine where we both changed
      </button>
    </div>
  );
}

/**
 * The draft stands on a version that is no longer live, and the worker could not put its edits
 * on the live one (they change the same places a publish around the console changed).
 */
function StaleNotice() {
  const draft = useStore($draft);
  const live = useStore($live);
  if (!draft || live.kind !== 'ready') return null;
  const head = live.state.head;
  if (head === null || draft.base === head.seq) return null;
  return (
    <div className="notice notice--error" role="alert">
      <p>
        <strong>
          This draft was started before {head.id} was published, which changed the same places.
        </strong>{' '}
        Publishing it is refused.
      </p>
      <button type="button" className="button" onClick={() => void takeLiveConfig()}>
        Load the live config (discards the draft's edits)
      </button>
    </div>
  );
}
