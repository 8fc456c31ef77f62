import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { LogFields } from '../../shared/log';

/**
 * What code below a route handler may do to the answer being made: name what happened on the
 * request's log line, set a header, end it as JSON. A handler hands its `c`, which is one;
 * nothing else of the request comes with it.
 */
export interface Answer {
  get(key: 'logFields'): LogFields;
  header(name: string, value: string | undefined, options?: { append?: boolean }): void;
  json(body: unknown, status: ContentfulStatusCode): Response;
}

/** Notes `field` on the request's log line: the one way code below a handler writes to it. */
export type Note = (field: string, value: LogFields[string]) => void;
