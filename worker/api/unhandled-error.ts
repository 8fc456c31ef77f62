import type { Context } from 'hono';
import { describeError, logError } from '../../shared/log';
import { refusal, refuse } from '../http/api-error';
import type { BaseEnv } from '../middleware/envs';

/** Paths the BFF answers; an error on them gets JSON, never the HTML error page. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** A bug in an `/api` call: logged with its stack's first line, answered as JSON like any call. */
export function apiErrorHandler<E extends BaseEnv>(error: Error, c: Context<E>): Response {
  logError('unhandled_exception', {
    id: c.get('requestId'),
    path: c.req.path,
    call: c.get('logFields').call as string | undefined,
    detail: describeError(error),
  });
  return refuse(c, refusal('internal_error'));
}
