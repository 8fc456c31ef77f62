import type { ContentDocument, ScreenBody, ScreenContent } from '../../shared/config/content';
import { screenBodyOf } from '../../shared/content-body';

/**
 * The content variants of a screen (shared/config/content.ts `variants`), which an experiment
 * shows against what every visitor sees: a headline test, a section-order test. The editor edits
 * a variant through a *view*: a content document in which the screen holds the variant's own
 * texts and the sections it shows, so every edit of ./content-edits.ts works on it unchanged;
 * `withView` writes the edited view back into the variant.
 */

type ScreenKey = keyof ContentDocument['screens'];

const screenOf = (content: ContentDocument, screen: string): ScreenContent =>
  content.screens[screen as ScreenKey] ?? {};

/** The screen's variants, by name, in the order the document keeps them. */
export function variantNames(content: ContentDocument, screen: string): string[] {
  return Object.keys(screenOf(content, screen).variants ?? {});
}

/**
 * Why `name` cannot be a new variant beside `taken` (shared/config/content.ts
 * `contentVariantName`): an experiment names it, so lower case, digits, `-` and `_`, 40 at most.
 */
export function newVariantNameProblem(taken: readonly string[], name: string): string | null {
  if (!/^[a-z][a-z0-9_-]{0,39}$/.test(name)) {
    return 'Use lower-case letters, digits, - and _, starting with a letter (at most 40).';
  }
  if (taken.includes(name)) return `"${name}" is already a variant.`;
  return null;
}

/** A variant name of `screen` an experiment may name (newVariantNameProblem). */
export function variantNameProblem(
  content: ContentDocument,
  screen: string,
  name: string,
): string | null {
  return newVariantNameProblem(variantNames(content, screen), name);
}

/** `content` with a new variant of `screen` that changes nothing yet. */
export function withNewVariant(
  content: ContentDocument,
  screen: string,
  name: string,
): ContentDocument {
  const own = screenOf(content, screen);
  return {
    ...content,
    screens: {
      ...content.screens,
      [screen]: { ...own, variants: { ...own.variants, [name]: {} } },
    },
  };
}

/** `content` without the variant `name` of `screen`. */
export function withoutVariant(
  content: ContentDocument,
  screen: string,
  name: string,
): ContentDocument {
  const own = screenOf(content, screen);
  const { [name]: _gone, ...variants } = own.variants ?? {};
  const { variants: _all, ...rest } = own;
  const next = Object.keys(variants).length > 0 ? { ...rest, variants } : rest;
  const { [screen as ScreenKey]: _old, ...others } = content.screens;
  const empty = Object.values(next).every((value) => value === undefined);
  return { ...content, screens: empty ? others : { ...others, [screen]: next } };
}

/**
 * What the editor edits: the document itself for what every visitor sees (`variant` null), else
 * a view whose screen shows the variant's sections (the screen's own when it lists none) and
 * holds the variant's own texts.
 */
export function contentView(
  content: ContentDocument,
  screen: string,
  variant: string | null,
): ContentDocument {
  if (variant === null) return content;
  const own = screenOf(content, screen);
  const laid = own.variants?.[variant] ?? {};
  return withScreenBody(content, screen, {
    sections: laid.sections ?? own.sections,
    copy: laid.copy,
    picture: laid.picture ?? own.picture,
  });
}

/**
 * `content` with an edited view written back into the variant: its texts, and its sections
 * unless they are the screen's own (then it shows the screen's, and follows its later edits). A
 * view whose sections went back to code's order keeps that order as the variant's own when the
 * screen has another (`composition`: code's section ids). Its picture, where it is not the screen's.
 */
export function withView(
  content: ContentDocument,
  screen: string,
  variant: string | null,
  view: ContentDocument,
  composition: readonly string[],
): ContentDocument {
  if (variant === null) return view;
  const own = screenOf(content, screen);
  const edited = screenOf(view, screen);
  const asCode = composition.map((id) => ({ id, visible: true }));
  const sections = edited.sections ?? (own.sections ? asCode : undefined);
  const body: ScreenContent = {};
  if (sections && JSON.stringify(sections) !== JSON.stringify(own.sections)) {
    body.sections = sections;
  }
  if (edited.copy) body.copy = edited.copy;
  // Its own picture only where it shows another than the screen's (a picture test).
  if (edited.picture && JSON.stringify(edited.picture) !== JSON.stringify(own.picture)) {
    body.picture = edited.picture;
  }
  return {
    ...content,
    screens: {
      ...content.screens,
      [screen]: { ...own, variants: { ...own.variants, [variant]: body } },
    },
  };
}

/** What the preview draws for the selection: the screen with the variant laid over it. */
export function previewedContent(
  content: ContentDocument,
  screen: string,
  variant: string | null,
): ContentDocument {
  if (variant === null) return content;
  return withScreenBody(content, screen, screenBodyOf(screenOf(content, screen), variant));
}

/** `content` whose `screen` is only `body`, without its variants, the parts it lacks left out. */
function withScreenBody(
  content: ContentDocument,
  screen: string,
  body: ScreenBody,
): ContentDocument {
  const { sections, copy, picture } = body;
  const drawn: ScreenContent = {};
  if (sections) drawn.sections = sections;
  if (copy) drawn.copy = copy;
  if (picture) drawn.picture = picture;
  return { ...content, screens: { ...content.screens, [screen]: drawn } };
}
