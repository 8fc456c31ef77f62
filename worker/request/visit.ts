import type { Context } from 'hono';
import { executionContextOf } from '../after-answer';
import type { FunnelConfig } from '../config/load';
import type { Bindings } from '../env';
import { type Answer, type Note, noteOn } from '../http/answer';
import type { Visit } from '../portal-client/portal-call';
import type { RateAsker } from '../rate-limits/rate-limit-gate';
import type { ApiEnv, AppEnv, Arms, BaseEnv, CountryEnv, ExperimentVariables } from './envs';
import { sessionToken } from './session-token';
import { type SignedCookies, signedCookiesOf } from './signed-cookies';
import { type SignInAnswer, sessionUserId } from './signed-in-user';

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
  /** The visitor's uuid (the visitor middleware). */
  visitorId: string;
  /** What the experiments drew for the visitor, or the marketer's preview they show. */
  arms: Arms;
  config: FunnelConfig;
  /** The visitor's route, and whether a validly signed `gf_route` kept it for the visit. */
  route: { id: string; kept: boolean };
  /** The session's access token (`gf_session`), or null: read once for the request. */
  sessionToken: string | null;
  /** The signed-in user (`gf_user`), its signature checked once however often it is asked. */
  signedInUser: () => Promise<string | null>;
  /** Notes a field on the request's log line. */
  note: Note;
  params: Readonly<Record<string, string>>;
  request: Request;
  cookies: SignedCookies;
  answer: Answer & SignInAnswer;
  asker: RateAsker;
}

export function callVisitOf<E extends ApiEnv>(c: Context<E>): CallVisit {
  const cookies = signedCookiesOf(c);
  let signedIn: Promise<string | null> | undefined;
  return {
    ...visitOf(c),
    visitorId: c.get('visitorId'),
    arms: armsOf(c.var),
    config: c.get('config'),
    route: { id: c.get('route').id, kept: c.get('routeKept') === true },
    sessionToken: sessionToken(c.req.header('cookie')),
    signedInUser: () => {
      signedIn ??= sessionUserId(cookies);
      return signedIn;
    },
    note: noteOn(c),
    params: c.req.param() as Record<string, string>,
    request: c.req.raw,
    cookies,
    answer: c,
    asker: rateAskerOf(c),
  };
}

/** The arms of what the experiments middleware set. */
function armsOf(vars: Readonly<ExperimentVariables>): Arms {
  const { variant, flow, experiments, preview } = vars;
  return { variant, flow, experiments, preview };
}

/**
 * A page's request as a screen's handler hands it to the page code (worker/routes/screens/),
 * before the screen before's carried values are taken: with the signed cookies and the
 * answer's headers they are read and cleared with.
 */
export interface PageRequest {
  env: Bindings;
  url: string;
  path: string;
  request: Request;
  vars: Readonly<AppEnv['Variables']>;
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
