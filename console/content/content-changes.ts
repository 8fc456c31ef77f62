import type { ContentDocument, ScreenBody, ScreenContent } from '../../shared/config/content';
import { contentOfRef, screenBodyOf } from '../../shared/content-body';

/**
 * What a publish changes of the screens' content, as the review's visual diff shows it: each
 * screen whose default body changes, and each content variant the publish adds or whose shown
 * body changes (its own edits, or the screen's it inherits). The screens are those in code and
 * those composed from sections (`composed`): a screen the publish composes is new, with each of
 * its variants; one whose `from` changes is changed throughout. A variant or a composed screen
 * the publish deletes shows nothing after, so it is left to the text diff.
 */

export interface ContentChange {
  screen: string;
  /** null: what every visitor sees; else the content variant an experiment shows. */
  variant: string | null;
  /** Whether the variant is new with this publish (the live side then shows the screen). */
  added: boolean;
  /** A screen the publish composes: nothing of it is live to draw beside the draft. */
  newScreen?: true;
}

const isComposed = (content: ContentDocument, id: string) =>
  content.composed !== undefined && Object.hasOwn(content.composed, id);

const sameBody = (before: ScreenContent, after: ScreenContent, variant: string | null) =>
  JSON.stringify(screenBodyOf(before, variant)) === JSON.stringify(screenBodyOf(after, variant));

/** The screens either side has content for: the screens in code's, then the composed ones. */
function screensOf(before: ContentDocument, after: ContentDocument): string[] {
  return [
    ...new Set([
      ...Object.keys(before.screens),
      ...Object.keys(after.screens),
      ...Object.keys(before.composed ?? {}),
      ...Object.keys(after.composed ?? {}),
    ]),
  ];
}

/** Every variant of a screen the publish composes, each new like the screen. */
function newScreenChanges(screen: string, draft: ScreenContent): ContentChange[] {
  return [null, ...Object.keys(draft.variants ?? {})].map((variant) => ({
    screen,
    variant,
    added: true,
    newScreen: true,
  }));
}

export function contentChanges(before: ContentDocument, after: ContentDocument): ContentChange[] {
  const changes: ContentChange[] = [];
  for (const screen of screensOf(before, after)) {
    const composed = isComposed(after, screen);
    if (isComposed(before, screen) !== composed) {
      if (composed) changes.push(...newScreenChanges(screen, contentOfRef(after, screen) ?? {}));
      continue;
    }
    const live = contentOfRef(before, screen) ?? {};
    const draft = contentOfRef(after, screen) ?? {};
    // A composed screen drawn from another screen in code differs in all it shows.
    const redrawn = composed && before.composed?.[screen]?.from !== after.composed?.[screen]?.from;
    if (redrawn || !sameBody(live, draft, null))
      changes.push({ screen, variant: null, added: false });
    for (const variant of Object.keys(draft.variants ?? {})) {
      const added = !Object.hasOwn(live.variants ?? {}, variant);
      if (added || redrawn || !sameBody(live, draft, variant))
        changes.push({ screen, variant, added });
    }
  }
  return changes;
}

/** A body's texts in one language, and its picture's alt text there, as one comparable value. */
const textsIn = (body: ScreenBody, language: string) =>
  JSON.stringify([body.copy?.[language] ?? {}, body.picture?.alt[language] ?? null]);

/**
 * The languages whose texts a change changes (its copy, its picture's alt text), so the review
 * draws the screen in a language where the change shows: every language a new screen has texts in.
 */
export function changedLanguages(
  before: ContentDocument,
  after: ContentDocument,
  change: ContentChange,
): string[] {
  const draft = screenBodyOf(contentOfRef(after, change.screen) ?? {}, change.variant);
  const live = change.newScreen
    ? {}
    : screenBodyOf(contentOfRef(before, change.screen) ?? {}, change.variant);
  const languages = new Set([
    ...Object.keys(live.copy ?? {}),
    ...Object.keys(draft.copy ?? {}),
    ...Object.keys(live.picture?.alt ?? {}),
    ...Object.keys(draft.picture?.alt ?? {}),
  ]);
  return [...languages].filter((language) => textsIn(live, language) !== textsIn(draft, language));
}
