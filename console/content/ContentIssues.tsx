import type { ContentDocument } from '../../shared/config/content';
import type { ComposedScreenChoice, ContentCatalogue } from '../../shared/console-api/content';
import type { FieldError } from '../../shared/console-api/errors';
import { PLURAL_SUFFIX } from '../../shared/copy-placeholders';
import { copyFieldId, languageName, sectionName } from '../kit/content-text';
import { useStore } from '../kit/stores/atom';
import { missingTranslations } from './content-edits';
import { $contentSelection, select } from './stores/content-editor';

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
 * field is opened first), and the languages a changed English text still waits for.
 */
export function ContentIssues(props: {
  catalogue: ContentCatalogue;
  screen: ComposedScreenChoice;
  content: ContentDocument;
  issues: readonly FieldError[];
}) {
  const { catalogue, screen, content, issues } = props;
  const missing = missingTranslations(
    content,
    screen.id,
    catalogue.languages,
    catalogue.texts.en ?? {},
  );
  const others = issues.filter(
    (issue) => issue.message !== 'must be given: its English text is changed',
  );
  if (missing.length === 0 && others.length === 0) return null;
  return (
    <div className="notice notice--warning" id="content-issues">
      {missing.length > 0 ? <MissingLanguages screen={screen} missing={missing} /> : null}
      {others.length > 0 ? (
        <>
          <p>
            <strong>A publish would refuse these:</strong>
          </p>
          <ul>
            {others.map((issue) => (
              <IssueItem key={`${issue.path}:${issue.message}`} screen={screen} issue={issue} />
            ))}
          </ul>
        </>
      ) : null}
    </div>
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

function MissingLanguages({
  screen,
  missing,
}: {
  screen: ComposedScreenChoice;
  missing: { key: string; languages: string[] }[];
}) {
  const selection = useStore($contentSelection);
  return (
    <>
      <p>
        <strong>Changed English needs every language.</strong> Give these texts in each language
        before you publish:
      </p>
      <ul className="content-missing" aria-label="Texts still to translate">
        {missing.map(({ key, languages }) => (
          <li key={key}>
            <code>{key}</code> ({sectionName(sectionOf(screen, key) ?? '')}):{' '}
            {languages.map((language) => (
              <button
                type="button"
                key={language}
                className="button button--small"
                aria-current={selection.language === language || undefined}
                onClick={() => goToField(screen, language, key)}
              >
                {languageName(language)}
              </button>
            ))}
          </li>
        ))}
      </ul>
    </>
  );
}
