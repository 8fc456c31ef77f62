import type { ContentDocument, ScreenContent } from '../../shared/config/content';
import { screenBodyOf } from '../../shared/content-body';

/**
 * What a publish changes of the screens' content, as the review's visual diff shows it: each
 * screen whose default body changes, and each content variant the publish adds or whose shown
 * body changes (its own edits, or the screen's it inherits). A variant the publish deletes shows
 * nothing after, so it is left to the text diff.
 */

export interface ContentChange {
  screen: string;
  /** null: what every visitor sees; else the content variant an experiment shows. */
  variant: string | null;
  /** Whether the variant is new with this publish (the live side then shows the screen). */
  added: boolean;
}

type ScreenKey = keyof ContentDocument['screens'];

const screenOf = (content: ContentDocument, screen: string): ScreenContent =>
  content.screens[screen as ScreenKey] ?? {};

const sameBody = (before: ScreenContent, after: ScreenContent, variant: string | null) =>
  JSON.stringify(screenBodyOf(before, variant)) === JSON.stringify(screenBodyOf(after, variant));

export function contentChanges(before: ContentDocument, after: ContentDocument): ContentChange[] {
  const screens = new Set([...Object.keys(before.screens), ...Object.keys(after.screens)]);
  const changes: ContentChange[] = [];
  for (const screen of screens) {
    const live = screenOf(before, screen);
    const draft = screenOf(after, screen);
    if (!sameBody(live, draft, null)) changes.push({ screen, variant: null, added: false });
    for (const variant of Object.keys(draft.variants ?? {})) {
      const added = !Object.hasOwn(live.variants ?? {}, variant);
      if (added || !sameBody(live, draft, variant)) changes.push({ screen, variant, added });
    }
  }
  return changes;
}
