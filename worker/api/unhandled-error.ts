import { describeError, logError } from '../../shared/log';
import type { Answer } from '../http/answer';
import { refusal, refuse } from '../http/api-json';

/** Paths the BFF answers; an error on them gets JSON, never the HTML error page. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** A bug in an `/api` call: logged with its stack's first line, answered as JSON like any call. */
export function answerApiError(
  error: Error,
  answer: Answer,
  request: { id: string; path: string },
): Response {
  logError('unhandled_exception', {
    ...request,
    call: answer.get('logFields').call as string | undefined,
    detail: describeError(error),
  });
  return refuse(answer, refusal('internal_error'));
}
