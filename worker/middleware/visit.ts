import type { Context, ExecutionContext } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { executionContextOf } from '../after-answer';
import type { Bindings } from '../env';
import type { CountryEnv } from './envs';
import type { RequestLogVariables } from './request-log';

/**
 * What code below a route handler knows of the request it serves, when it acts for the visitor
 * elsewhere (the product API): plain values the handler reads once from its context, so nothing
 * below it holds `c`.
 */
export interface Visit {
  env: Bindings;
  /** The request's id on its log line (./request-log.ts). */
  requestId: string;
  country: string | null;
  /** The visitor's address, as Cloudflare gave it (`CF-Connecting-IP`). */
  clientIp: string | undefined;
  /** The funnel's origin, as the visitor reached it. */
  origin: string;
  /** Undefined when the app was called without one (app.request in a test). */
  executionCtx: ExecutionContext | undefined;
}

export function visitOf<E extends CountryEnv>(c: Context<E>): Visit {
  return {
    env: c.env,
    requestId: c.get('requestId'),
    country: c.get('country'),
    clientIp: c.req.header('cf-connecting-ip'),
    origin: new URL(c.req.url).origin,
    executionCtx: executionContextOf(c),
  };
}

/**
 * What code below a route handler may do to the answer being made: name what happened on the
 * request's log line, set a header, end it as JSON. A handler hands its `c`, which is one;
 * nothing else of the request comes with it.
 */
export interface Answer {
  get(key: 'logFields'): RequestLogVariables['logFields'];
  header(name: string, value: string | undefined, options?: { append?: boolean }): void;
  json(body: unknown, status: ContentfulStatusCode): Response;
}
