import type { Context, MiddlewareHandler } from 'hono';
import type { TFunction } from 'i18next';
import type { ScreenRef } from '../../shared/composed-screens';
import type { InAppBrowser } from '../../shared/in-app-browser';
import type { Theme } from '../../shared/theme';
import type { FunnelConfig } from '../config/load';
import type { Bindings } from '../env';
import {
  compiledExperiments,
  type ExperimentAssignment,
  visitorTrigger,
} from '../experiments/config/evaluate';
import { exposedAt } from '../experiments/exposure/exposure-rules';
import type { FunnelShape } from '../funnel/flow';
import type { Answer, Note } from '../http/answer';
import type { Visit } from '../portal-client/portal-call';
import type { RateAsker } from '../rate-limits/rate-limit-gate';
import type { FirstTouch } from '../routing/first-touch';
import type { ChosenRoute, RouteRampArm } from '../routing/router';
import { executionContextOf, type RunsInRequest } from './after-answer';
import { type SignedCookies, signedCookiesOf } from './cookies';
import type {
  ApiEnv,
  AppEnv,
  Arms,
  Attribution,
  BaseEnv,
  CountryEnv,
  CountryVariables,
  ExperimentVariables,
  VisitorExperiments,
} from './envs';
import { type SignInAnswer, sessionToken, sessionUserId } from './signed-in-user';

export function visitOf<E extends CountryEnv>(c: Context<E>): Visit {
  return { ...visitRequestOf(c), country: c.get('country') };
}

/** A visit's facts of the request itself: all but its country, which the middleware decodes. */
function visitRequestOf<E extends BaseEnv>(c: Context<E>): Omit<Visit, 'country'> {
  return {
    env: c.env,
    requestId: c.get('requestId'),
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
    note: noteOn(c),
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

/**
 * What a `/api` call knows of its request itself, before the visit's decoded facts (its country,
 * config, route and arms): read first (callRequestOf), the same value for every reader.
 */
type CallRequest = Omit<CallVisit, 'country' | 'arms' | 'config' | 'route' | 'params'>;

/** Each request's own facts and its call visit, made once: `c` is one request's, whoever asks. */
const requestParts = new WeakMap<object, CallRequest>();
const requestVisits = new WeakMap<object, CallVisit>();

/** The call's visit: read from the request's context once, the same value for every reader. */
export function callVisitOf<E extends ApiEnv>(c: Context<E>): CallVisit {
  return madeOnce(requestVisits, c, () => readCallVisit(c));
}

/** What `make` gives for the request whose context is `c`, made the first time it is asked. */
function madeOnce<V>(made: WeakMap<object, V>, c: object, make: () => V): V {
  let value = made.get(c);
  if (value === undefined) {
    value = make();
    made.set(c, value);
  }
  return value;
}

/**
 * Reads a `/api` call's visit before its body checks and its handler: every fact the call takes
 * from its request is read here, in one place, and the handler takes the value (callVisitOf).
 */
export function readVisitFirst<E extends ApiEnv>(): MiddlewareHandler<E> {
  return async function visitFirst(c, next) {
    callVisitOf(c);
    await next();
  };
}

/**
 * A `/api` call's own facts (its session, signed-in user, address, the answer's headers), read
 * once: the browser's API's visit (worker/middleware/browser-visit.ts) reads them right after the
 * visitor's id, before anything is decoded from the config, so the request's facts are taken in
 * one pass before the rooms below decode theirs.
 */
export function callRequestOf<E extends ApiEnv>(c: Context<E>): CallRequest {
  return madeOnce(requestParts, c, () => readCallRequest(c));
}

function readCallRequest<E extends ApiEnv>(c: Context<E>): CallRequest {
  const cookies = signedCookiesOf(c);
  let signedIn: Promise<string | null> | undefined;
  return {
    ...visitRequestOf(c),
    visitorId: c.get('visitorId'),
    sessionToken: sessionToken(c),
    signedInUser: () => {
      signedIn ??= sessionUserId(cookies);
      return signedIn;
    },
    note: noteOn(c),
    request: c.req.raw,
    cookies,
    answer: c,
    asker: rateAskerOf(c),
  };
}

function readCallVisit<E extends ApiEnv>(c: Context<E>): CallVisit {
  return {
    ...callRequestOf(c),
    country: c.get('country'),
    arms: armsOf(c.var),
    config: c.get('config'),
    route: { id: c.get('route').id, kept: c.get('routeKept') === true },
    params: c.req.param() as Record<string, string>,
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
  facts: PageFacts;
  cookies: SignedCookies;
  answer: Answer;
  /** For work after the answer is sent (./after-answer.ts); undefined without one (a test). */
  executionCtx: RunsInRequest['executionCtx'];
}

export function pageRequestOf(c: Context<AppEnv>): PageRequest {
  return {
    env: c.env,
    url: c.req.url,
    path: c.req.path,
    request: c.req.raw,
    facts: pageFactsOf(c),
    cookies: signedCookiesOf(c),
    answer: c,
    executionCtx: executionContextOf(c),
  };
}

/**
 * What a funnel page knows of its request, read once by its handler from what the pages'
 * middleware set: the visitor, their country, route and arms, the page's language, copy, theme
 * and script nonce, and the config; and the note on its log line.
 */
export interface PageFacts {
  requestId: string;
  note: Note;
  visitor: {
    id: string;
    /** The ad app whose own browser sent the page, or null. */
    inApp: InAppBrowser | null;
    /** Where the visit came from, kept from its first page. */
    firstTouch: FirstTouch;
    attribution: Attribution;
  };
  country: string | null;
  route: ChosenRoute;
  arms: Arms;
  language: string;
  t: TFunction;
  theme: Theme;
  /** The copy is the Copy area's unpublished draft, which a marketer's preview shows. */
  copyDraft?: true;
  nonce: string;
  config: FunnelConfig;
  /** The arms of the ramped routes this page's route was chosen in, which it exposes. */
  routeRamps: readonly RouteRampArm[];
}

function pageFactsOf(c: Context<AppEnv>): PageFacts {
  const { requestId, visitorId, inApp, firstTouch, attribution, country, route } = c.var;
  const { language, t, theme, copyDraft, nonce, config, routeChosen, routeRamps } = c.var;
  return {
    requestId,
    note: noteOn(c),
    visitor: { id: visitorId, inApp, firstTouch, attribution },
    country,
    route,
    arms: armsOf(c.var),
    language,
    t,
    theme,
    ...(copyDraft ? { copyDraft } : {}),
    nonce,
    config,
    // A ramped route's arms are drawn where the route is chosen, and exposed on that page.
    routeRamps: routeChosen === true ? (routeRamps ?? []) : [],
  };
}

/**
 * A request as a route handler hands it to its own steps (a hook's, the collector's): the
 * bindings, its id and country, the note on its log line, the request itself and the answer
 * being made.
 */
export interface Handled {
  env: Bindings;
  requestId: string;
  /** Where the sub-app runs the country middleware (the collector); null elsewhere. */
  country: string | null;
  note: Note;
  request: Request;
  answer: Answer;
}

export function handledOf<E extends BaseEnv>(c: Context<E>): Handled {
  // The country middleware's, where the sub-app runs it: a hook's sub-app does not.
  const { country } = c.var as Partial<CountryVariables>;
  return {
    env: c.env,
    requestId: c.get('requestId'),
    country: country ?? null,
    note: noteOn(c),
    request: c.req.raw,
    answer: c,
  };
}

/** The note of the answer being made. */
export function noteOn(answer: Pick<Answer, 'get'>): Note {
  return function note(field, value) {
    answer.get('logFields')[field] = value;
  };
}

/**
 * Where a page stands among the visitor's experiments: which it exposes them to (the exposure
 * middleware counts them), whether the next screen would (the page must not prefetch it), and
 * which arms its field vitals count in.
 */

/**
 * Where the visitor's experiment `at` (of their assignments) first acts on their funnel, with the
 * content that declares the composed screens it may list.
 */
function triggerOf(config: FunnelConfig, visitor: VisitorExperiments, at: number): number | null {
  const { split, flows, routing, experiments: document } = config;
  const compiled = compiledExperiments(document, split, routing, config.content);
  return visitorTrigger(compiled, visitor.base, visitor.assignments, at, flows, config.content);
}

/**
 * The visitor's experiments this page exposes them to: those they are assigned to and not pinned
 * to, whose trigger in their funnel is at or before the screen served.
 */
export function exposedHere(
  config: FunnelConfig,
  path: string,
  visitor: VisitorExperiments,
): { assignment: ExperimentAssignment; trigger: ScreenRef }[] {
  const index = screenIndexOf(path, visitor.shape);
  const exposed: { assignment: ExperimentAssignment; trigger: ScreenRef }[] = [];
  visitor.assignments.forEach((assignment, at) => {
    if (assignment.state !== 'assigned') return;
    const trigger = triggerOf(config, visitor, at);
    if (exposedAt(index, trigger))
      exposed.push({ assignment, trigger: visitor.shape.screens[trigger as number]! });
  });
  return exposed;
}

/**
 * Whether a page of `path` may expose its visitor (the exposure middleware counts what it did
 * once answered): to an experiment (exposedHere), to the holdout, or to a ramped route's arm
 * drawn on it. Such a page carries an exposure ticket for its script to send back
 * (worker/routes/screens/screen-props.ts), as its exposures count only then.
 */
export function mayExposeHere(
  config: FunnelConfig,
  path: string,
  visitor: VisitorExperiments,
  routeRamps: readonly RouteRampArm[],
): boolean {
  if (!visitor.exposable) return false;
  if (visitor.holdout !== null || routeRamps.length > 0) return true;
  return exposedHere(config, path, visitor).length > 0;
}

/**
 * Whether showing `next` after `current` would expose the visitor to an experiment this page does
 * not: then the page must not prefetch it (worker/routes/screens/). A prefetched page is shown
 * from the browser's cache without asking the worker again, so its exposure would never be
 * counted, and the visitor would walk on unpinned, their variant followed by the hash alone.
 */
export function exposesNext(
  visitor: VisitorExperiments,
  config: FunnelConfig,
  current: ScreenRef,
  next: ScreenRef,
): boolean {
  if (!visitor.exposable || !visitor.assignments.some((a) => a.state === 'assigned')) return false;
  const here = visitor.shape.screens.indexOf(current);
  const there = visitor.shape.screens.indexOf(next);
  return visitor.assignments.some((assignment, at) => {
    if (assignment.state !== 'assigned') return false;
    const trigger = triggerOf(config, visitor, at);
    return exposedAt(there, trigger) && !exposedAt(here, trigger);
  });
}

/**
 * The experiments a page of `screen` counts in, for its field vitals (worker/collector/
 * vitals-sample.ts): those the visitor is pinned to, and those this page exposes them to.
 */
export function armsCountedOn(
  visitor: VisitorExperiments,
  config: FunnelConfig,
  path: string,
): { experiment: string; variant: string }[] {
  const pinned = visitor.assignments.filter((assignment) => assignment.state === 'pinned');
  const exposed = visitor.exposable
    ? exposedHere(config, path, visitor).map(({ assignment }) => assignment)
    : [];
  return [...pinned, ...exposed].map(({ experiment, variant }) => ({ experiment, variant }));
}

/** Where the page served stands in the visitor's funnel: `/` is its first screen; -1 outside it. */
function screenIndexOf(path: string, shape: FunnelShape): number {
  if (path === '/') return shape.screens.length > 0 ? 0 : -1;
  return shape.screens.indexOf(path.slice(1) as ScreenRef);
}
