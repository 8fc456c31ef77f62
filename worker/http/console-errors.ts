import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ConsoleErrorCode } from '../../shared/console-api/errors';
import type { Answer } from './answer';

/**
 * Every `/console/*` refusal: `{ ok: false, error }` JSON (shared/console-api/errors.ts), its code
 * on the request's log line, and never cached, since a console answer is one marketer's.
 */
export function consoleError(
  c: Answer,
  status: ContentfulStatusCode,
  code: ConsoleErrorCode,
): Response {
  // Optional: a test app may mount a console route without the request log.
  const fields = c.get('logFields');
  if (fields) fields.error = code;
  c.header('Cache-Control', 'no-store');
  return c.json({ ok: false, error: code }, status);
}
