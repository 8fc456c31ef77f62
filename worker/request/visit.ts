import type { Context, ExecutionContext } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { executionContextOf } from '../after-answer';
import type { Bindings } from '../env';
import type { RateAsker } from '../rate-limits/rate-limit-gate';
import type { PageVisit } from '../routes/screens/page-visit';
import type { ApiEnv, AppEnv, BaseEnv, CountryEnv, RequestLogVariables } from './envs';
import { type SignedCookies, signedCookiesOf } from './signed-cookies';
import type { SignInAnswer } from './signed-in-user';

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

/** The asker an `/api` request's context names: the one place the rate gates' values are read. */
export function rateAskerOf<E extends ApiEnv>(c: Context<E>): RateAsker {
  return {
    env: c.env,
    visitorId: c.get('visitorId'),
    connectingIp: c.req.header('cf-connecting-ip'),
    requestId: c.get('requestId'),
    fields: c.get('logFields'),
  };
}

/**
 * What a call relayed to the product API knows of its request below the handler
 * (worker/api/call-handler.ts, and the purchase work it hands a charge to): the visit, what the
 * middleware learnt, the path's parameters, the request itself (its headers, address and body
 * are read, never its context), the signed cookies, and the answer's headers for a session set
 * or ended.
 */
export interface CallVisit extends Visit {
  vars: Readonly<ApiEnv['Variables']>;
  params: Readonly<Record<string, string>>;
  request: Request;
  cookies: SignedCookies;
  answer: Answer & SignInAnswer;
  asker: RateAsker;
}

export function callVisitOf<E extends ApiEnv>(c: Context<E>): CallVisit {
  return {
    ...visitOf(c),
    vars: c.var,
    params: c.req.param() as Record<string, string>,
    request: c.req.raw,
    cookies: signedCookiesOf(c),
    answer: c,
    asker: rateAskerOf(c),
  };
}

/**
 * A page's request as a screen's handler hands it to the page code (worker/routes/screens/),
 * before the screen before's carried values are taken: with the signed cookies and the
 * answer's headers they are read and cleared with.
 */
export interface PageRequest extends Omit<PageVisit, 'carried'> {
  cookies: SignedCookies;
  answer: Answer;
}

export function pageRequestOf(c: Context<AppEnv>): PageRequest {
  return {
    env: c.env,
    url: c.req.url,
    path: c.req.path,
    request: c.req.raw,
    vars: c.var,
    cookies: signedCookiesOf(c),
    answer: c,
  };
}

/**
 * A request as a route handler hands it to its own steps (a hook's, the collector's): the
 * bindings, what its middleware learnt, the request itself and the answer being made.
 */
export interface Handled<E extends BaseEnv> {
  env: Bindings;
  vars: Readonly<E['Variables']>;
  request: Request;
  answer: Answer;
}

export function handledOf<E extends BaseEnv>(c: Context<E>): Handled<E> {
  // c.var is E's Variables with Hono's own map; TypeScript cannot see that through a generic E.
  const vars = c.var as Readonly<E['Variables']>;
  return { env: c.env, vars, request: c.req.raw, answer: c };
}
