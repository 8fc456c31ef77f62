import type { FieldError } from '../../shared/console-api/errors';
import { placeholderProblems } from '../../shared/copy-placeholders';
import { copyRuleProblems } from '../../shared/copy-rules';

/**
 * What is wrong with a copy text as the marketer types it, whether in its field or in place on
 * the preview: the worker's check at its path, a placeholder lost or unknown, the section's
 * length limit passed.
 */
export function copyProblems(options: {
  key: string;
  english: string;
  text: string;
  maxChars: number;
  path: string;
  issues: readonly FieldError[];
}): string[] {
  const { key, english, text, maxChars } = options;
  const checked = options.issues.filter((issue) => issue.path === options.path);
  const flagged = [
    ...placeholderProblems(key, english, text),
    ...copyRuleProblems(key, english, text),
  ];
  if (text.length > maxChars) flagged.push(`${text.length - maxChars} characters over the limit`);
  return [...new Set([...checked.map((issue) => issue.message), ...flagged])];
}
