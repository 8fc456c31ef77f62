import type { ReactNode } from 'react';
import type { LanguageNote } from '../../shared/console-api/languages';
import { copyKeyLabel } from './copy-key-text';

/**
 * What visitors in each other language see of an English change, as the worker's validator said
 * it (shared/console-api/languages.ts): one line per language and what they see, with the texts
 * it concerns, each as `item` draws it (a button to the field, in the content editor; to the
 * key, in the Copy area). Said, never decided, here: the content editor and the Copy area show
 * the same answer.
 */
export function LanguageNotes(props: {
  notes: readonly LanguageNote[];
  /** What the list is, said by a screen reader. */
  label: string;
  item: (note: LanguageNote) => ReactNode;
}) {
  const groups = new Map<string, LanguageNote[]>();
  for (const note of props.notes) {
    const id = `${note.language}:${note.message}`;
    groups.set(id, [...(groups.get(id) ?? []), note]);
  }
  return (
    <ul className="language-notes" aria-label={props.label}>
      {[...groups].map(([id, notes]) => (
        <li key={id}>
          {sentence(notes[0]!.message)}:{' '}
          {notes.map((note) => (
            <span key={note.path}>{props.item(note)} </span>
          ))}
        </li>
      ))}
    </ul>
  );
}

/**
 * The text a note is about in a marketer's words, as its field names it ("Headline"), the copy
 * key beside it as detail.
 */
export function NoteText({ note }: { note: LanguageNote }) {
  return (
    <>
      {copyKeyLabel(note.key)} <code className="muted">{note.key}</code>
    </>
  );
}

/**
 * What a screen reader says of a note's text: its name in words, then its key, as NoteText shows
 * them, so a control showing NoteText holds its visible words in its name, in order (WCAG 2.5.3,
 * label in name; axe's label-content-name-mismatch).
 */
export const noteTextName = (note: LanguageNote) => `${copyKeyLabel(note.key)} ${note.key}`;

/** A note's message as the start of a sentence. */
const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

/** The badge a field's label bears for its note: the text is outdated, or no test shows it. */
export function NoteBadge({ note }: { note: LanguageNote | undefined }) {
  if (!note) return null;
  const word = note.kind === 'outdated' ? 'outdated' : 'no test in this language';
  return <span className="badge badge--paused">{word}</span>;
}

/** A field's note in words, under it (`id`: what the field is described by). */
export function NoteLine({ id, note }: { id: string; note: LanguageNote | undefined }) {
  if (!note) return null;
  return (
    <p className="field__after" id={id}>
      {sentence(note.message)}.
    </p>
  );
}

/** Where a note's text is written, for a screen's or a variant's (null: the Copy area's). */
export function placeOf(note: LanguageNote): string | null {
  const found = note.path.match(
    /^content\.(?:screens|composed)\.([^.]+)(?:\.variants\.([^.]+))?\./,
  );
  if (!found) return null;
  const [, screen, variant] = found;
  return variant ? `screen ${screen}, variant ${variant}` : `screen ${screen}`;
}

/**
 * In the review of the draft: what each other language's visitors will see of the English the
 * publish changes in the content (CheckAnswer.languages), which does not stop it.
 */
export function ReviewLanguages({ notes }: { notes: readonly LanguageNote[] }) {
  if (notes.length === 0) return null;
  return (
    <div className="notice" id="review-languages">
      <p>
        <strong>English changes publish without the other languages</strong> (they do not stop the
        publish). Until each is written:
      </p>
      <LanguageNotes
        notes={notes}
        label="What visitors in other languages see once published"
        item={(note) => (
          <>
            <NoteText note={note} /> on {placeOf(note)}
          </>
        )}
      />
    </div>
  );
}
