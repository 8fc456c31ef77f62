import type { CopyKey, CopyState } from '../../shared/console-api/copy';
import type { LanguageNote } from '../../shared/console-api/languages';
import { placeholderProblems, textVariables } from '../../shared/copy-placeholders';
import { NoteBadge, NoteLine } from '../kit/LanguageNotes';
import { useStore } from '../kit/stores/atom';
import { renderedParts } from './copy-text';
import {
  $copyEdits,
  $copyPreview,
  $copyReview,
  copyPreviewIsCurrent,
  copyReviewIsCurrent,
  editText,
  previewDraft,
} from './stores/copy';

/** A text as a visitor reads it, each placeholder filled with an example and marked. */
function Rendered({ text }: { text: string }) {
  return (
    <span className="copy-rendered">
      {renderedParts(text).map((part, index) =>
        part.placeholder ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order
          <mark key={index} title={`{{${part.placeholder}}}`}>
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}

/** Under a field: its text as a visitor reads it, and what the worker says of it, if anything. */
function ShowsAs(props: { id: string; value: string; note: LanguageNote | undefined }) {
  return (
    <>
      <p className="field__after" id={`${props.id}:shows`}>
        <span className="muted">Shows as: </span>
        <Rendered text={props.value} />
      </p>
      <NoteLine id={`${props.id}:note`} note={props.note} />
    </>
  );
}

/**
 * What the worker says of a text after an English change (at `path`, `copy.de.<key>`): in the
 * last review of the draft while it is current, else in the live to-do unless the draft edits it.
 */
function useNoteOf(state: CopyState, path: string, edited: boolean): LanguageNote | undefined {
  const review = useStore($copyReview);
  if (review.kind === 'checked' && copyReviewIsCurrent(review)) {
    return review.languages.find((note) => note.path === path);
  }
  return edited ? undefined : state.outdated.find((note) => note.path === path);
}

/** One language's text of the key: what is live, the edit, how it shows and what is wrong. */
function LanguageField(props: { entry: CopyKey; code: string; name: string; state: CopyState }) {
  const { entry, code, name, state } = props;
  const edits = useStore($copyEdits);
  const preview = useStore($copyPreview);
  const mine = preview.kind !== 'idle' && preview.language === code;
  const bundled = entry.bundled[code] ?? '';
  const live = state.live[code]?.[entry.key];
  const edit = edits[code]?.[entry.key];
  const value = edit === undefined ? (live ?? bundled) : (edit ?? bundled);
  const id = `copy:${code}:${entry.key}`;
  const problems =
    value.trim() === ''
      ? ['must not be empty']
      : placeholderProblems(entry.key, entry.english, value);
  const overridden = edit === undefined ? live !== undefined : edit !== null && edit !== bundled;
  const changed = edit !== undefined && (edit ?? bundled) !== (live ?? bundled);
  const note = useNoteOf(state, `copy.${code}.${entry.key}`, edit !== undefined);
  return (
    <div className="field copy-field">
      <label htmlFor={id}>
        {name} ({code}) {overridden ? <span className="badge">override</span> : null}
        {changed ? <span className="badge badge--paused">edited</span> : null}
        <NoteBadge note={note} />
      </label>
      <textarea
        id={id}
        className="input"
        dir={code === 'ar' ? 'rtl' : undefined}
        lang={code}
        rows={Math.min(6, Math.max(2, Math.ceil(value.length / 60)))}
        value={value}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={note ? `${id}:shows ${id}:note` : `${id}:shows`}
        onChange={(event) => editText(code, entry.key, event.target.value)}
      />
      <ShowsAs id={id} value={value} note={note} />
      {problems.map((problem) => (
        <p className="field-problem" key={problem}>
          {problem}
        </p>
      ))}
      <div className="copy-field__actions">
        {overridden ? (
          <button
            type="button"
            className="button button--small"
            onClick={() => editText(code, entry.key, null)}
          >
            Use the bundled {name} text
          </button>
        ) : null}
        <button
          type="button"
          className="button button--small"
          aria-disabled={(mine && preview.kind === 'busy') || undefined}
          onClick={() => {
            if (!(mine && preview.kind === 'busy')) void previewDraft(code);
          }}
        >
          Preview the draft in {name}
        </button>
        {mine && preview.kind === 'ready' && copyPreviewIsCurrent(preview) ? (
          <a href={preview.url} target="_blank" rel="noreferrer">
            Open the {name} preview with your draft
          </a>
        ) : state.pages[code] ? (
          <a href={state.pages[code]} target="_blank" rel="noreferrer">
            Open the funnel in {name} (live copy)
          </a>
        ) : null}
      </div>
      {mine && preview.kind === 'refused' ? (
        <p className="field-problem" role="alert">
          {preview.message}
        </p>
      ) : null}
    </div>
  );
}

/** Every language's text of one key, edited side by side with the English it translates. */
export function CopyEditor({ entry, state }: { entry: CopyKey; state: CopyState }) {
  const variables = textVariables(entry.english);
  const titleId = `copy-key:${entry.key}`;
  return (
    <article className="card copy-editor" aria-labelledby={titleId}>
      <h4 className="card__title" id={titleId}>
        <code>{entry.key}</code>
      </h4>
      <p>
        <span className="muted">English: </span>
        {entry.english}
      </p>
      {variables.length > 0 ? (
        <p className="muted">
          Keep the placeholders {variables.map((v) => `{{${v}}}`).join(', ')}: the page fills them
          in (shown below with example values).
        </p>
      ) : null}
      {state.languages
        .filter(({ code }) => Object.hasOwn(entry.bundled, code))
        .map(({ code, name }) => (
          <LanguageField key={code} entry={entry} code={code} name={name} state={state} />
        ))}
    </article>
  );
}
