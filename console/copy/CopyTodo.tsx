import type { CopyState } from '../../shared/console-api/copy';
import type { LanguageNote } from '../../shared/console-api/languages';
import { languageName } from '../kit/content-text';
import { copyKeyLabel } from '../kit/copy-key-text';
import { LanguageNotes, noteTextName, placeOf } from '../kit/LanguageNotes';
import { PageLink } from '../kit/PageLink';
import { useStore } from '../kit/stores/atom';
import { $copyEdits, $copyReview, $copySelected, copyReviewIsCurrent } from './stores/copy';

/**
 * The translators' side of an English change (docs/marketers.md, "One language at a time"): the
 * to-do of outdated texts per language, as the worker counts them in the live copy and content,
 * and before a copy publish, what each language's visitors will see of the draft's English.
 */

/**
 * One text of the to-do, named in words with its key as detail: the Copy area's opens its key; a
 * screen's is written in Content.
 */
function TodoItem({ note }: { note: LanguageNote }) {
  const edits = useStore($copyEdits);
  const place = placeOf(note);
  if (place !== null) {
    return (
      <PageLink
        area="content"
        aria-label={`${noteTextName(note)} on ${place}: write it in Content`}
      >
        {copyKeyLabel(note.key)} <code>{note.key}</code> on {place}
      </PageLink>
    );
  }
  const drafted = typeof edits[note.language]?.[note.key] === 'string';
  return (
    <>
      <button
        type="button"
        className="button button--small key-button"
        aria-label={`Open ${noteTextName(note)} to write its ${languageName(note.language)}`}
        onClick={() => $copySelected.set(note.key)}
      >
        {copyKeyLabel(note.key)} <code className="muted">{note.key}</code>
      </button>
      {drafted ? <span className="badge">written in your draft</span> : null}
    </>
  );
}

/** The live to-do: each language's outdated texts, cleared as each language is published. */
export function CopyTodo({ state }: { state: CopyState }) {
  const count = state.outdated.length;
  return (
    <section className="copy-todo" aria-labelledby="copy-todo-title">
      <h3 id="copy-todo-title">To translate ({count})</h3>
      {count === 0 ? (
        <p className="muted">Every language says what its English says.</p>
      ) : (
        <>
          <p className="muted">
            English changed here, in the Copy area or on a screen, without these languages. Their
            visitors see the text they had until it is written and published.
          </p>
          <LanguageNotes
            notes={state.outdated}
            label="Texts to translate, by language"
            item={(note) => <TodoItem note={note} />}
          />
        </>
      )}
    </section>
  );
}

/** After a review: what each other language's visitors see once the draft is published. */
export function CopyLanguages() {
  const review = useStore($copyReview);
  useStore($copyEdits);
  if (review.kind !== 'checked' || !copyReviewIsCurrent(review)) return null;
  if (review.languages.length === 0) return null;
  return (
    <div className="notice" id="copy-languages">
      <p>
        <strong>English changes publish without the other languages.</strong> Once published, until
        each is written:
      </p>
      <LanguageNotes
        notes={review.languages}
        label="What visitors in other languages see once published"
        item={(note) => <code>{note.key}</code>}
      />
    </div>
  );
}
