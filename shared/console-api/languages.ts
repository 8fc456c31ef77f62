import type { FieldError } from './errors';

/**
 * What the worker's validator says of copy given in English only (docs/marketers.md, "One
 * language at a time"), to the content editor and the Copy area alike: a change is published
 * without the other languages, and each note says what that language's visitors see of it.
 * Plain types, as the rest of this folder.
 */

/**
 * `outdated`: the text keeps what the language said before the English changed, marked outdated
 * in the console until it is updated; `untested`: a content variant has no text in the language,
 * so a test showing it is not shown to its visitors, who are not counted.
 */
export type LanguageNoteKind = 'outdated' | 'untested';

/** One text a language lacks after an English change, where that text would go (`path`). */
export interface LanguageNote extends FieldError {
  /** `content.screens.one_pager.copy.de.screens.one_pager.title`, `copy.de.landing.title`. */
  path: string;
  language: string;
  /** The copy key (a plural form as the language has it: `i18n.trial_days_few`). */
  key: string;
  kind: LanguageNoteKind;
  /** What the language's visitors see, in words the console shows as they are. */
  message: string;
}
