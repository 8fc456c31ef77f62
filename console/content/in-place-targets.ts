/**
 * Which texts of a drawn preview a marketer may edit in place, found by what they say: the
 * console knows each copy key's text (with its `{{placeholders}}`), and reads the frame's page,
 * which the worker drew exactly as a visitor gets it (no marks of the editor's in it). A text
 * is matched where an element says all of it and no element inside it does.
 */

import type { ContentDocument } from '../../shared/config/content';
import type { ComposedScreenChoice, ContentCatalogue } from '../../shared/console-api/content';
import type { FieldError } from '../../shared/console-api/errors';

/** What the preview's in-place editing works from (./InPlaceTexts.tsx). */
export interface InPlaceProps {
  frame: HTMLIFrameElement;
  /** How many times the frame has loaded: a new page is measured again. */
  loads: number;
  catalogue: ContentCatalogue;
  screen: ComposedScreenChoice;
  language: string;
  /** The content as the preview draws it (the variant laid over the screen). */
  drawn: ContentDocument;
  issues: readonly FieldError[];
}

/** Where a text is drawn, in the frame's own pixels, and what it says now. */
export interface Spot {
  key: string;
  section: string;
  top: number;
  left: number;
  width: number;
  height: number;
  said: string;
}

/** A copy key the screen reads, its text as the preview draws it, and the section it is in. */
export interface CopyTarget {
  key: string;
  text: string;
  section: string;
}

/** An element of the preview that says a copy key's text. */
export interface FoundText {
  key: string;
  section: string;
  element: Element;
}

const normal = (text: string) => text.replace(/\s+/g, ' ').trim();
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Fewest letters a text keeps besides its placeholders to be told apart from others. */
const MIN_LITERAL = 3;

/**
 * A test of whether a drawn text is `template` with its placeholders filled in, or null for a
 * text that cannot be found by what it says: nested (`$t(…)`), marked up (`<1>…</1>`), or
 * nearly all placeholder.
 */
export function textMatcher(template: string): ((drawn: string) => boolean) | null {
  const text = normal(template);
  if (text.includes('$t(') || /<\/?\d+>/.test(text)) return null;
  const parts = text.split(/\{\{[^}]*\}\}/);
  if (parts.join('').trim().length < MIN_LITERAL) return null;
  if (parts.length === 1) return (drawn) => normal(drawn) === text;
  const pattern = new RegExp(`^${parts.map(escaped).join('.+?')}$`, 's');
  return (drawn) => pattern.test(normal(drawn));
}

/** Elements whose text is never a visitor's copy. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'svg', 'SELECT', 'OPTION']);

/** The elements of `body` that say one of `targets`' texts, deepest first per key. */
export function findTexts(body: Element, targets: readonly CopyTarget[]): FoundText[] {
  const matchers = targets.flatMap((target) => {
    const matches = textMatcher(target.text);
    return matches ? [{ target, matches, longest: target.text.length * 4 + 200 }] : [];
  });
  const found: FoundText[] = [];
  const visit = (element: Element) => {
    if (SKIPPED.has(element.tagName)) return;
    for (const child of element.children) visit(child);
    const said = element.textContent ?? '';
    const hit = matchers.find(({ matches, longest }) => said.length <= longest && matches(said));
    // A deeper element already says it: that one is the text, this one only holds it.
    if (!hit || found.some((f) => f.key === hit.target.key && element.contains(f.element))) return;
    found.push({ key: hit.target.key, section: hit.target.section, element });
  };
  visit(body);
  return found;
}
