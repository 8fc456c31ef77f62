import type { ContentDocument } from '../../shared/config/content';
import type { LanguageNote } from '../../shared/console-api/languages';
import { issuesThroughLens } from '../kit/composed-screens';

/**
 * The worker's language notes (shared/console-api/languages.ts: what visitors in another
 * language see of an English change) of what the editor shows: the screen, or one of its
 * variants, at the paths the view's fields read (`content.screens.<id>.copy.<language>.<key>`).
 * The console says what the validator said; it decides nothing of its own.
 */
export function notesOfView(
  content: ContentDocument,
  screen: string,
  variant: string | null,
  notes: readonly LanguageNote[],
): LanguageNote[] {
  const at = `content.screens.${screen}`;
  const from = variant === null ? `${at}.copy.` : `${at}.variants.${variant}.copy.`;
  return issuesThroughLens(content, screen, notes)
    .filter((note) => note.path.startsWith(from))
    .map((note) => ({ ...note, path: `${at}.copy.${note.path.slice(from.length)}` }));
}
