import { useEffect, useMemo, useState } from 'react';
import type { CopyState } from '../../shared/console-api/copy';
import { utcMinuteText } from '../../shared/utc-minute';
import { LoadFailure } from '../kit/FailureNotice';
import { StatusLine } from '../kit/StatusLine';
import { useStore } from '../kit/stores/atom';
import { CopyEditor } from './CopyEditor';
import { CopyReview } from './CopyReview';
import { CopyLanguages, CopyTodo } from './CopyTodo';
import { byArea, editCount, findKeys } from './copy-text';
import {
  $copy,
  $copyEdits,
  $copySelected,
  $copyStatus,
  COPY_STATUS_ID,
  discardCopyEdits,
  loadCopy,
} from './stores/copy';

/** How many keys a search lists at once; a narrower search finds the rest. */
const SHOWN = 30;

function KeyBrowser({ state }: { state: CopyState }) {
  const [query, setQuery] = useState('');
  const selected = useStore($copySelected);
  const setSelected = (key: string) => $copySelected.set(key);
  const edits = useStore($copyEdits);
  const found = useMemo(() => findKeys(state.keys, query, state.live), [state, query]);
  const shown = found.slice(0, SHOWN);
  const entry = state.keys.find((k) => k.key === selected) ?? null;
  const edited = (key: string) => Object.values(edits).some((texts) => key in texts);
  const overridden = (key: string) => Object.values(state.live).some((texts) => key in texts);
  return (
    <div className="copy-browser">
      <div className="field">
        <label htmlFor="copy-search">Find a text</label>
        <input
          id="copy-search"
          className="input"
          type="search"
          placeholder="English words or a key, e.g. Locate"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <p className="field__after muted" role="status">
          {found.length === 1 ? '1 text matches' : `${found.length} texts match`}
          {found.length > SHOWN ? `; the first ${SHOWN} are listed, add words to narrow it` : ''}
        </p>
      </div>
      <div className="copy-browser__panes">
        <nav aria-label="Texts found" className="copy-keys">
          {byArea(state.areas, shown).map((group) => {
            const area = state.areas.find((a) => a.id === group.area);
            return (
              <section key={group.area} aria-label={`${group.area} texts`}>
                <h3 className="copy-keys__area">
                  {group.area}
                  {area?.shows ? <span className="muted"> · {area.shows}</span> : null}
                </h3>
                <ul className="copy-keys__list">
                  {group.keys.map((k) => (
                    <li key={k.key}>
                      <button
                        type="button"
                        className="copy-key"
                        aria-current={k.key === selected || undefined}
                        onClick={() => setSelected(k.key)}
                      >
                        <span className="copy-key__english">{k.english}</span>
                        <code className="copy-key__name">{k.key}</code>
                        {edited(k.key) ? <span className="badge badge--paused">edited</span> : null}
                        {overridden(k.key) ? <span className="badge">override</span> : null}
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </nav>
        <div className="copy-editor-pane">
          {entry ? (
            <CopyEditor entry={entry} state={state} />
          ) : (
            <p className="muted">Pick a text to edit it in every language.</p>
          )}
        </div>
      </div>
    </div>
  );
}

/** The funnel's texts in every language: find, edit with a preview, review, publish. */
export function Copy() {
  const copy = useStore($copy);
  const edits = useStore($copyEdits);
  const status = useStore($copyStatus);
  // Once a visit to the console: coming back to this page keeps the edits made on it.
  useEffect(() => {
    if ($copy.get().kind !== 'ready') void loadCopy();
  }, []);
  const count =
    copy.kind === 'ready'
      ? editCount(
          copy.state.live,
          edits,
          (language, key) => copy.state.keys.find((k) => k.key === key)?.bundled[language],
        )
      : 0;
  return (
    <section className="section" id="copy" aria-labelledby="copy-title">
      <h2 id="copy-title">Copy</h2>
      <p className="muted">
        Every text of the funnel, in every language. Find one by its English words or its key, edit
        any language, then review and publish: pages show it within the cache time, without a
        deploy. <code>npm run translations</code> publishes to the same store.
      </p>
      <StatusLine id={COPY_STATUS_ID} status={status} />
      {copy.kind === 'loading' ? <p className="muted">Loading the copy…</p> : null}
      {copy.kind === 'failed' ? <LoadFailure message={copy.message} retry={loadCopy} /> : null}
      {copy.kind === 'ready' ? (
        <>
          <p>
            {copy.state.head
              ? `Live copy: ${copy.state.head.id}, published ${utcMinuteText(copy.state.head.at)} by ${copy.state.head.author}.`
              : 'No copy published yet: every page shows the bundled text.'}
          </p>
          {copy.state.drift ? <p className="notice notice--warning">{copy.state.drift}</p> : null}
          <CopyTodo state={copy.state} />
          <KeyBrowser state={copy.state} />
          {count > 0 ? (
            <p>
              {count === 1 ? '1 text changed' : `${count} texts changed`} in your draft.{' '}
              <button type="button" className="button button--small" onClick={discardCopyEdits}>
                Discard copy changes
              </button>
            </p>
          ) : null}
          <CopyLanguages />
          <CopyReview count={count} />
        </>
      ) : null}
    </section>
  );
}
