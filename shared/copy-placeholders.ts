/**
 * The placeholders of a copy text, as i18next reads them (`{{price}}`, `{{count, number}}`):
 * the worker's checks of a copy override (worker/translations/check.ts) and the console's Copy
 * area, which flags a lost placeholder while the marketer types, read them the same way.
 */

/** i18next's plural forms: a key ending in one of these is one form of a counted text. */
export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The variables a text interpolates: `{{price}}`, `{{count, number}}` → price, count. */
export function textVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!))].sort();
}

/**
 * What every page fills in for its brand (shared/brand.ts, worker/i18n.ts brandedTranslator): any
 * text may use them, so a marketer names the brand without naming one of the four.
 */
const BRAND_PLACEHOLDERS: readonly string[] = ['brand', 'support_email'];

/**
 * What `text` lacks of `english`'s placeholders, and what it names that English does not. A
 * plural form may leave out its number ("one day" for a count of 1), as i18next allows.
 */
export function placeholderProblems(key: string, english: string, text: string): string[] {
  const want = textVariables(english);
  const have = textVariables(text);
  const missing = want.filter(
    (v) => !have.includes(v) && !(PLURAL_SUFFIX.test(key) && v === 'count'),
  );
  const unknown = have.filter((v) => !want.includes(v) && !BRAND_PLACEHOLDERS.includes(v));
  const problems: string[] = [];
  if (missing.length) problems.push(`lacks {{${missing.join('}}, {{')}}}`);
  if (unknown.length) problems.push(`unknown {{${unknown.join('}}, {{')}}}`);
  return problems;
}
