import type { z } from 'zod';

/**
 * One printer for what a schema refused, so the worker's 400s, the collector's, the config CLI's
 * and the portal's all read `path: message`. Not zod's prettifyError: its lines
 * ("✖ message → at path") are for a terminal, and these go into one-line log details and JSON.
 *
 * `root` names a problem of the whole value (an empty path): 'body' for a request, '(root)' for a
 * document; null leaves the message bare.
 */
export function issueText(issue: z.core.$ZodIssue, root: string | null = 'body'): string {
  const path = issue.path.map(String).join('.');
  if (path) return `${path}: ${issue.message}`;
  return root === null ? issue.message : `${root}: ${issue.message}`;
}

/** Every issue of `error` as issueText, at most `limit` of them. */
export function issueTexts(
  error: z.ZodError,
  root: string | null = 'body',
  limit = Number.POSITIVE_INFINITY,
): string[] {
  return error.issues.slice(0, limit).map((issue) => issueText(issue, root));
}
