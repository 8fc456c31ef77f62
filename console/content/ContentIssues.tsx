import type { ComposedScreenChoice } from '../../shared/console-api/content';
import type { FieldError } from '../../shared/console-api/errors';
import type { LanguageNote } from '../../shared/console-api/languages';
import { PLURAL_SUFFIX } from '../../shared/copy-placeholders';
import { copyFieldId, languageName } from '../kit/content-text';
import { LanguageNotes, NoteText, noteTextName } from '../kit/LanguageNotes';
import { select } from './stores/content-editor';

/** Where a copy path points: its language and key, if it is one (`…copy.de.landing.x`). */
function copyTarget(path: string, screen: string): { language: string; key: string } | null {
  const at = `content.screens.${screen}.copy.`;
  if (!path.startsWith(at)) return null;
  const [language = '', ...key] = path.slice(at.length).split('.');
  return key.length > 0 ? { language, key: key.join('.') } : null;
}

/** The section of the screen that reads `key`, to show its field. */
function sectionOf(screen: ComposedScreenChoice, key: string): string | null {
  const base = key.replace(PLURAL_SUFFIX, '');
  const found = Object.values(screen.sections).find((section) =>
    section.keys.some((k) => k === key || k.replace(PLURAL_SUFFIX, '') === base),
  );
  return found?.id ?? null;
}

/** Shows `key`'s field in `language` and puts focus in it. */
function goToField(screen: ComposedScreenChoice, language: string, key: string): void {
  select({ language, section: sectionOf(screen, key) });
  requestAnimationFrame(() => document.getElementById(copyFieldId(language, key))?.focus());
}

/**
 * What a publish would refuse of this screen, each linked to its field (another language's
 * field is opened first), and what the worker's validator says visitors in each other language
 * see of its English changes, which publish without them (`notes`).
 */
export function ContentIssues(props: {
  screen: ComposedScreenChoice;
  issues: readonly FieldError[];
  notes: readonly LanguageNote[];
}) {
  const { screen, issues, notes } = props;
  if (issues.length === 0 && notes.length === 0) return null;
  return (
    <>
      {notes.length > 0 ? <OtherLanguages screen={screen} notes={notes} /> : null}
      {issues.length > 0 ? (
        <div className="notice notice--warning" id="content-issues">
          <p>
            <strong>A publish would refuse these:</strong>
          </p>
          <ul>
            {issues.map((issue) => (
              <IssueItem key={`${issue.path}:${issue.message}`} screen={screen} issue={issue} />
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

function IssueItem({ screen, issue }: { screen: ComposedScreenChoice; issue: FieldError }) {
  const target = copyTarget(issue.path, screen.id);
  return (
    <li>
      {target ? (
        <a
          href={`#${copyFieldId(target.language, target.key)}`}
          onClick={(event) => {
            event.preventDefault();
            goToField(screen, target.language, target.key);
          }}
        >
          {target.key} in {languageName(target.language)}
        </a>
      ) : (
        <code>{issue.path}</code>
      )}
      : {issue.message}
    </li>
  );
}

/** What visitors in the other languages see, each text a button to its field. */
function OtherLanguages(props: { screen: ComposedScreenChoice; notes: readonly LanguageNote[] }) {
  return (
    <div className="notice" id="content-languages">
      <p>
        <strong>English changes publish without the other languages.</strong> Until each is written,
        the worker serves:
      </p>
      <LanguageNotes
        notes={props.notes}
        label="What visitors in other languages see"
        item={(note) => (
          <button
            type="button"
            className="button button--small key-button"
            aria-label={`Write ${noteTextName(note)} in ${languageName(note.language)}`}
            onClick={() => goToField(props.screen, note.language, note.key)}
          >
            <NoteText note={note} />
          </button>
        )}
      />
    </div>
  );
}
