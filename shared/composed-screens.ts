import { composedIdProblem } from './composed-screen-name';
import { type DrawnScreen, isScreenId, QUESTION_SCREEN, type ScreenId } from './screens';

/**
 * Screens a marketer composes from sections (shared/config/content.ts `composed`): each has an
 * id of its own, which is its path (`/spring_landing`) and its name in flows, routes and
 * experiments, and takes the behaviour of the screen in code it starts `from` (its islands, its
 * step in the flow, its analytics page name). The type `ScreenId` stays the closed list of the
 * screens in code; a flow lists `ScreenRef`s, and code that needs a screen in code resolves a
 * composed id to its `from` (screenOfRef) at the edges. Plain code, so the console takes it.
 */

declare const composedBrand: unique symbol;

/** A composed screen's id, as the content document declares it. */
export type ComposedScreenId = string & { readonly [composedBrand]: true };

/** A screen a flow may list: one in code, or one composed in the content document. */
export type ScreenRef = ScreenId | ComposedScreenId;

/** Whether `value` may name a composed screen (whether the content declares it is apart). */
export function isComposedScreenId(value: string): value is ComposedScreenId {
  return composedIdProblem(value) === null;
}

export function isScreenRef(value: string): value is ScreenRef {
  return isScreenId(value) || isComposedScreenId(value);
}

/** What resolving a composed id needs of the content document. */
export interface ComposedScreens {
  composed?: Readonly<Record<string, { from: ScreenId } | undefined>>;
  /** A quiz's questions (shared/quiz/question.ts), by id: each drawn as QUESTION_SCREEN. */
  questions?: Readonly<Record<string, unknown>>;
}

/**
 * The screen in code `ref` is drawn as and behaves like: itself, a composed screen's `from`, or
 * a question's QUESTION_SCREEN; null for an id the content does not declare.
 */
export function screenOfRef(content: ComposedScreens, ref: string): DrawnScreen | null {
  if (isScreenId(ref)) return ref;
  const { composed, questions } = content;
  if (composed && Object.hasOwn(composed, ref)) return composed[ref]?.from ?? null;
  return questions && Object.hasOwn(questions, ref) ? QUESTION_SCREEN : null;
}

/**
 * A flow's screens as the screens in code they are drawn as (what they offer, what they sell),
 * each composed one as its `from`; one the content does not declare is left out.
 */
export function screensInCode(content: ComposedScreens, refs: readonly string[]): DrawnScreen[] {
  return refs.flatMap((ref) => screenOfRef(content, ref) ?? []);
}
