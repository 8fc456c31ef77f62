import type { ContentDocument } from '../../shared/config/content';
import type { ComposedScreenChoice, ContentCatalogue } from '../../shared/console-api/content';
import type { FieldError } from '../../shared/console-api/errors';
import type { LanguageNote } from '../../shared/console-api/languages';
import { textVariables } from '../../shared/copy-placeholders';
import { copyFieldId, languageName, sectionName } from '../kit/content-text';
import { copyKeyLabel } from '../kit/copy-key-text';
import { NoteBadge, NoteLine } from '../kit/LanguageNotes';
import { keysInLanguage, ownText } from './content-edits';
import { copyProblems } from './copy-problems';
import { resetText, setText } from './stores/content-editor';

/**
 * The copy of the selected section in the selected language: a field per key it reads, showing
 * the text a visitor reads now and where it comes from, with its length against the section's
 * limit, the placeholders it must keep, what the worker's check says of it, and whether the
 * worker counts it outdated (or a variant's test left out) after an English change (`notes`).
 */
export function CopyFields(props: {
  catalogue: ContentCatalogue;
  screen: ComposedScreenChoice;
  section: string;
  language: string;
  content: ContentDocument;
  issues: readonly FieldError[];
  notes: readonly LanguageNote[];
}) {
  const { catalogue, screen, section, language } = props;
  const choice = screen.sections[section];
  if (!choice) return null;
  const texts = catalogue.texts[language] ?? {};
  const keys = keysInLanguage(choice.keys, texts);
  const rtl = catalogue.rtl.includes(language);
  return (
    <fieldset className="content-copy">
      <legend>
        {sectionName(section)}: its copy in {languageName(language)}
      </legend>
      <p className="muted">
        Up to {choice.maxChars} characters a text. Text only: markup is shown as written.
      </p>
      {keys.length === 0 ? <p>This section reads no copy a marketer can change.</p> : null}
      {keys.map((key) => (
        <CopyField
          key={`${language}:${key}`}
          {...props}
          copyKey={key}
          base={texts[key]}
          english={catalogue.texts.en?.[key] ?? texts[key] ?? ''}
          overridden={catalogue.overridden[language]?.includes(key) === true}
          maxChars={choice.maxChars}
          dir={rtl ? 'rtl' : 'ltr'}
        />
      ))}
    </fieldset>
  );
}

function CopyField(props: {
  screen: ComposedScreenChoice;
  language: string;
  content: ContentDocument;
  issues: readonly FieldError[];
  notes: readonly LanguageNote[];
  copyKey: string;
  base: string | undefined;
  english: string;
  overridden: boolean;
  maxChars: number;
  dir: 'rtl' | 'ltr';
}) {
  const { screen, language, copyKey: key, base, maxChars } = props;
  const own = ownText(props.content, screen.id, language, key);
  const value = own ?? base ?? '';
  const id = copyFieldId(language, key);
  const path = `content.screens.${screen.id}.copy.${language}.${key}`;
  const problems = copyProblems({
    key,
    english: props.english,
    text: value,
    maxChars,
    path,
    issues: props.issues,
  });
  const source =
    own !== undefined
      ? 'This screen’s text'
      : props.overridden
        ? 'The Copy area’s text'
        : 'Bundled text';
  const note = props.notes.find((n) => n.path === path);
  // Chosen by the text it starts from, not the one typed: a field that changed kind under the
  // keys would lose focus mid-word.
  const Control = maxChars > 160 || (base ?? props.english).length > 60 ? 'textarea' : 'input';
  return (
    <div className="field content-copy__field">
      <label htmlFor={id}>
        {copyKeyLabel(key)} <code className="muted">{key}</code> <NoteBadge note={note} />
      </label>
      <Control
        id={id}
        className="input"
        lang={language}
        dir={props.dir}
        value={value}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={describedByOf(id, note !== undefined, problems.length > 0)}
        onChange={(event) => setText(language, key, event.target.value)}
        {...(Control === 'textarea' ? { rows: 3 } : {})}
      />
      <FieldAbout
        id={`${id}-about`}
        length={value.length}
        maxChars={maxChars}
        source={source}
        variables={textVariables(props.english)}
      />
      <NoteLine id={`${id}-note`} note={note} />
      {own !== undefined ? (
        <p className="field__after">
          <button
            type="button"
            className="button button--small button--quiet"
            aria-label={`Use the text from before: ${key}`}
            onClick={() => resetText(language, key)}
          >
            Use the text from before
          </button>
        </p>
      ) : null}
      <CopyProblems id={`${id}-problems`} problems={problems} />
    </div>
  );
}

/** What a copy field is described by: its length and source, the worker's note, its problems. */
function describedByOf(id: string, noted: boolean, problems: boolean): string {
  return [`${id}-about`, noted ? `${id}-note` : null, problems ? `${id}-problems` : null]
    .filter(Boolean)
    .join(' ');
}

/** What is wrong with a copy text, under its field (`id`: what the field is described by). */
export function CopyProblems({ id, problems }: { id: string; problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="field-errors" id={id}>
      {problems.map((problem) => (
        <li key={problem}>{problem}</li>
      ))}
    </ul>
  );
}

/** A field's length against its limit, where its text comes from, the placeholders it keeps. */
export function FieldAbout(props: {
  id: string;
  length: number;
  maxChars: number;
  source: string;
  variables: string[];
}) {
  const { length, maxChars, variables } = props;
  return (
    <p className="field__after content-copy__about" id={props.id}>
      <span className={length > maxChars ? 'content-copy__over' : undefined}>
        {length} / {maxChars} characters
      </span>
      {' · '}
      {props.source}
      {variables.length > 0 ? (
        <>
          {' · keeps '}
          {variables.map((name) => (
            <code className="chip" key={name}>{`{{${name}}}`}</code>
          ))}
        </>
      ) : null}
    </p>
  );
}
