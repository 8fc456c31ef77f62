import { composedIdProblem } from '../../shared/composed-screen-name';
import type { ComposedScreenContent, ContentDocument } from '../../shared/config/content';
import type { ScreenChoice } from '../../shared/console-api/config';
import type { ComposedScreenChoice, ContentCatalogue } from '../../shared/console-api/content';
import type { FieldError } from '../../shared/console-api/errors';
import { screenName } from './content-text';

/**
 * Screens a marketer composes in the draft (shared/config/content.ts `composed`): made, named,
 * listed beside the screens in code wherever screens are picked, and edited with the editor's
 * own edits through a *lens*: a content document in which the composed screen sits under
 * `screens` like a screen in code's content, so ../content/content-edits.ts and
 * ../content/content-variants.ts work on it unchanged; `throughComposed` writes the edited
 * screen back under `composed`.
 */

type ScreenKey = keyof ContentDocument['screens'];

export function isComposedIn(content: ContentDocument, id: string): boolean {
  return content.composed !== undefined && Object.hasOwn(content.composed, id);
}

/** The screens the editor offers: the catalogue's, then the draft's composed ones. */
export function editableScreens(
  catalogue: ContentCatalogue,
  content: ContentDocument | null,
): ComposedScreenChoice[] {
  const composed = Object.entries(content?.composed ?? {}).flatMap(([id, own]) => {
    const from = catalogue.screens.find((screen) => screen.id === own.from);
    return from ? [{ ...from, id }] : [];
  });
  return [...catalogue.screens, ...composed];
}

/** A screen's name in the editor's picker: a composed one says what it starts from. */
export function editableScreenName(content: ContentDocument | null, id: string): string {
  const own = content && isComposedIn(content, id) ? content.composed?.[id] : undefined;
  return own ? `${id} (new, from ${screenName(own.from)})` : screenName(id);
}

/**
 * The screens a flow or an experiment may name: the worker's, then the draft's composed ones,
 * then its quiz's questions (kind `question`).
 */
export function withComposedChoices(
  choices: readonly ScreenChoice[],
  content: ContentDocument,
): ScreenChoice[] {
  const kindOf = (id: string) => choices.find((choice) => choice.id === id)?.kind ?? 'other';
  const composed = Object.entries(content.composed ?? {}).map(([id, own]) => ({
    id,
    kind: kindOf(own.from),
  }));
  const questions = Object.keys(content.questions ?? {}).map((id) => ({ id, kind: 'question' }));
  return [...choices, ...composed, ...questions];
}

/** Why `id` cannot name a new screen in this draft, or null when it can. */
export function composedNameProblem(content: ContentDocument, id: string): string | null {
  if (id === '') return 'Give the screen a name, such as spring_landing.';
  const problem = composedIdProblem(id);
  if (problem !== null) return `"${id}" ${problem}.`;
  if (isComposedIn(content, id)) return `A screen named ${id} already exists.`;
  return null;
}

/** The draft with a new screen: the starting screen's sections as they are, its own copy. */
export function withComposedScreen(
  content: ContentDocument,
  screen: { id: string; slot: string; from: string },
): ContentDocument {
  const own = { slot: screen.slot, from: screen.from } as ComposedScreenContent;
  return { ...content, composed: { ...content.composed, [screen.id]: own } };
}

export function withoutComposedScreen(content: ContentDocument, id: string): ContentDocument {
  const { [id]: _gone, ...others } = content.composed ?? {};
  return { ...content, composed: others };
}

/** The flows that walk `id`: a screen they name cannot be taken out from under them. */
export function flowsWalking(flows: Readonly<Record<string, readonly string[]>>, id: string) {
  return Object.entries(flows)
    .filter(([, screens]) => screens.includes(id))
    .map(([name]) => name);
}

/** The lens: `content` with the composed screen `id` under `screens` (as is, if not composed). */
export function asScreenContent(content: ContentDocument, id: string): ContentDocument {
  if (!isComposedIn(content, id)) return content;
  const { slot: _slot, from: _from, ...own } = content.composed![id]!;
  return { ...content, screens: { ...content.screens, [id as ScreenKey]: own } };
}

/** An edit of the lens, written back: the composed screen's content in its place. */
export function throughComposed(
  content: ContentDocument,
  id: string,
  change: (view: ContentDocument) => ContentDocument,
): ContentDocument {
  if (!isComposedIn(content, id)) return change(content);
  const { slot, from } = content.composed![id]!;
  const edited = change(asScreenContent(content, id));
  const { [id as ScreenKey]: own, ...screens } = edited.screens;
  const composed = { ...edited.composed, [id]: { ...own, slot, from } as ComposedScreenContent };
  return { ...edited, screens, composed };
}

/**
 * The content check's findings about a composed screen, at the paths the editor's fields read
 * (`content.screens.<id>…`), so each is shown beside its field as a screen in code's is.
 */
export function issuesThroughLens<T extends FieldError>(
  content: ContentDocument,
  id: string,
  issues: readonly T[],
): T[] {
  if (!isComposedIn(content, id)) return [...issues];
  const composedAt = `content.composed.${id}`;
  return issues.map((issue) =>
    issue.path === composedAt || issue.path.startsWith(`${composedAt}.`)
      ? { ...issue, path: `content.screens.${id}${issue.path.slice(composedAt.length)}` }
      : issue,
  );
}
