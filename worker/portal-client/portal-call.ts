import type { ExecutionContext } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  type AnswerContext,
  type Field,
  readAnswer,
  type ShapeDrift,
} from '../../shared/api/answer-fields';
import type { ApiCall, ApiCallName } from '../../shared/api/contract';
import { LIFECYCLE_SIGNATURE_HEADER } from '../../shared/api/lifecycle';
import {
  PORTAL_ANSWERS,
  PORTAL_REFUSAL,
  type SignedInAnswer,
} from '../../shared/api/portal-answers';
import { describeError, logError } from '../../shared/log';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { type ApiRefusal, portalErrorRefusal, refusal } from '../http/api-json';
import { mappedRefusal, rawRefusalForLog, unshapedRefusal } from './portal-refusal';

/**
 * What code below a route handler knows of the request it serves, when it acts for the visitor
 * elsewhere (the product API, whose client takes it): plain values the handler reads once from
 * its context (worker/request/visit.ts visitOf), so nothing below it holds `c`.
 */
export interface Visit {
  env: Bindings;
  /** The request's id on its log line (worker/middleware/request-log.ts). */
  requestId: string;
  country: string | null;
  /** The visitor's address, as Cloudflare gave it (`CF-Connecting-IP`). */
  clientIp: string | undefined;
  /** The funnel's origin, as the visitor reached it. */
  origin: string;
  /** Undefined when the app was called without one (app.request in a test). */
  executionCtx: ExecutionContext | undefined;
}

/**
 * One call to the product API, from where it goes to what came back: the transport the worker
 * is set up with, the request the portal receives, and the exchange within the call's wait.
 * What the answer means for the browser is further down this file.
 */

/** Sends one request to the portal the transport chose; rejects when there is no answer. */
export type PortalSend = (request: Request) => Promise<Response>;

/**
 * Answers portal requests in place of the network: a test's portal that is down, slow or broken
 * (AppOptions.portalFetch), or the development kit's embedded emulator (DevKit.portal), which
 * reads PORTAL_DB from the request's bindings.
 */
export type PortalFetch = (
  request: Request,
  env: Bindings,
  ctx: ExecutionContext | undefined,
) => Promise<Response>;

/** Base URL of requests to the embedded portal; it answers the §7 paths at its root. */
export const EMBEDDED_PORTAL_ORIGIN = 'https://portal.internal';

export type PortalTransport =
  | { ok: true; baseUrl: string; send: PortalSend }
  | { ok: false; code: 'portal_not_configured' };

/**
 * Where `/api` calls go (ARCHITECTURE.md, The portal and payments): PORTAL_URL when set, else
 * the embedded emulator, which only a development worker has (worker/dev.ts hands it in as the
 * stand-in) and which answers only when ENVIRONMENT is exactly 'development'. Any other worker
 * refuses (fail closed): the emulator would make throwaway accounts no app can sign
 * in to.
 *
 * `standIn` answers instead of the network (a test's portal) or instead of the missing emulator
 * (a test's portal, the development kit's emulator), behind the very same routes.
 */
function portalTransport(
  env: Bindings,
  standIn: PortalFetch | undefined,
  ctx: ExecutionContext | undefined,
): PortalTransport {
  if (env.PORTAL_URL) {
    return {
      ok: true,
      baseUrl: env.PORTAL_URL.replace(/\/+$/, ''),
      send: standIn ? (request) => standIn(request, env, ctx) : (request) => fetch(request),
    };
  }
  if (!isDevelopment(env) || !standIn) return { ok: false, code: 'portal_not_configured' };
  return {
    ok: true,
    baseUrl: EMBEDDED_PORTAL_ORIGIN,
    send: (request) => standIn(request, env, ctx),
  };
}

export interface PortalRequestParts {
  baseUrl: string;
  call: ApiCall;
  /** The call's path with its parameters filled in. */
  path: string;
  /** The checked body of a POST, else null. */
  body: unknown;
  /** The signed-in visitor's access token, for bearer calls only (SPEC.md §6). */
  bearer: string | null;
  /** The visitor's country as the edge knows it, for /cf-country. */
  country: string | null;
  /** CF-Connecting-IP, so the portal sees the visitor rather than the worker. */
  clientIp: string | undefined;
  /** The funnel's own origin: the emulator builds its short deeplinks on it. */
  funnelOrigin: string;
  /** The page's Idempotency-Key of a POST, else null. */
  idempotencyKey: string | null;
  /**
   * `Geofunnel-Signature` of a server-to-server call the worker makes on its own authority (the
   * subscriber's page, worker/subscriber-links/subscriber-portal.ts), else absent.
   */
  signature?: string;
}

/** The request the portal receives for one `/api` call: only the headers it needs. */
function portalRequest(parts: PortalRequestParts): Request {
  const headers = new Headers({
    accept: 'application/json',
    'x-funnel-origin': parts.funnelOrigin,
  });
  if (parts.bearer !== null) headers.set('authorization', `Bearer ${parts.bearer}`);
  if (parts.country !== null) headers.set('cf-ipcountry', parts.country);
  if (parts.clientIp) headers.set('x-forwarded-for', parts.clientIp);
  if (parts.idempotencyKey !== null) headers.set('idempotency-key', parts.idempotencyKey);
  if (parts.signature !== undefined) headers.set(LIFECYCLE_SIGNATURE_HEADER, parts.signature);
  const hasBody = parts.call.method === 'POST';
  if (hasBody) headers.set('content-type', 'application/json');
  return new Request(parts.baseUrl + parts.path, {
    method: parts.call.method,
    headers,
    body: hasBody ? JSON.stringify(parts.body ?? {}) : undefined,
    // A redirect is not a §7 answer; following it could carry the bearer token elsewhere.
    redirect: 'manual',
  });
}

/** What came of one request to the portal, before any reading of its meaning. */
export type PortalOutcome =
  | { kind: 'answered'; status: number; text: string; ms: number }
  | { kind: 'unavailable'; detail: string; ms: number }
  | { kind: 'timed_out'; ms: number };

/**
 * Sends the request and reads the whole answer within `timeoutMs`. The deadline covers the body
 * too (a portal that sends headers and then stalls is as stuck as one that never answers), and
 * it is a race, not only an abort signal, so a transport that ignores the signal cannot hang the
 * visitor's request either: a portal call ends in an answer or a timeout, never a hang.
 */
export async function exchangeWithPortal(
  send: PortalSend,
  request: Request,
  timeoutMs: number,
  now: () => number = () => performance.now(),
): Promise<PortalOutcome> {
  const started = now();
  const elapsed = () => Math.round(now() - started);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timed_out'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timed_out');
    }, timeoutMs);
  });
  const attempt = (async () => {
    const response = await send(new Request(request, { signal: controller.signal }));
    return { status: response.status, text: await response.text() };
  })();
  // Once the deadline has won, a late failure of the attempt is of no interest.
  attempt.catch(() => {});
  try {
    const result = await Promise.race([attempt, deadline]);
    if (result === 'timed_out') return { kind: 'timed_out', ms: elapsed() };
    return { kind: 'answered', status: result.status, text: result.text, ms: elapsed() };
  } catch (error) {
    const detail = describeError(error);
    return { kind: 'unavailable', detail, ms: elapsed() };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** SPEC.md §7's per-call wait, unless PORTAL_TIMEOUT_MS overrides every call (tests shorten it). */
export function portalTimeoutMs(callTimeoutMs: number, override: string | undefined): number {
  const value = Number(override);
  return override !== undefined && override !== '' && Number.isFinite(value) && value > 0
    ? value
    : callTimeoutMs;
}

/** One call as it goes to the product API: what the request carries beyond the visitor's. */
export type PortalCall = Pick<
  PortalRequestParts,
  'path' | 'body' | 'bearer' | 'idempotencyKey' | 'signature'
> & {
  /** The call's name in the logs. */
  name: string;
  call: ApiCall;
};

/**
 * Sends one call to the product API the worker is set up with (portalTransport above), as the
 * visitor's request (their country, address and the funnel's origin), within the call's wait,
 * and reads the whole answer. No transport (no PORTAL_URL outside development) is logged and
 * answered as its code. The visit gives the visitor's request and the execution context, which
 * the transport hands the embedded portal.
 */
export async function sendToPortal(
  visit: Visit,
  outgoing: PortalCall,
  portalFetch: PortalFetch | undefined,
): Promise<{ ok: true; outcome: PortalOutcome } | { ok: false; code: 'portal_not_configured' }> {
  const transport = portalTransport(visit.env, portalFetch, visit.executionCtx);
  if (!transport.ok) {
    logError(transport.code, { id: visit.requestId, call: outgoing.name });
    return transport;
  }
  const request = portalRequest({
    baseUrl: transport.baseUrl,
    call: outgoing.call,
    path: outgoing.path,
    body: outgoing.body,
    bearer: outgoing.bearer,
    country: visit.country,
    clientIp: visit.clientIp,
    funnelOrigin: visit.origin,
    idempotencyKey: outgoing.idempotencyKey,
    signature: outgoing.signature,
  });
  const timeoutMs = portalTimeoutMs(outgoing.call.timeoutMs, visit.env.PORTAL_TIMEOUT_MS);
  return { ok: true, outcome: await exchangeWithPortal(transport.send, request, timeoutMs) };
}

/** Calls whose successful answer carries the access token the worker keeps in its cookie. */
const SIGN_IN_CALLS: ReadonlySet<ApiCallName> = new Set(['signup', 'socialSignIn']);

export type BrowserAnswer =
  | {
      ok: true;
      status: ContentfulStatusCode;
      body: unknown;
      /** The token to keep in the session cookie; never part of `body`. */
      accessToken: string | null;
      /** The signed-in user's external id, kept beside the token. */
      userId: string | null;
      /** For the log line of a refusal: the portal's code, else 'portal_refused'. */
      errorCode: string | null;
      /** The portal's own words of a refusal, truncated: for the log line, never the body. */
      rawText?: string;
      /** Fields taken in another form than the contract's (logged as `portal_shape`). */
      drift: ShapeDrift[];
    }
  | {
      ok: false;
      refusal: ApiRefusal;
      /** The required field that was missing, when that was the reason. */
      missing?: string;
      /** What the portal said, truncated: for the log line, never the body. */
      rawText?: string;
      drift: ShapeDrift[];
    };

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * What the browser is told about the portal's answer (the contract with the islands):
 * - a 2xx is read field by field (shared/api/portal-answers.ts): every field the step needs
 *   must be there, the others default; it passes with its status, sign-in answers without the
 *   token;
 * - a non-2xx with `errors` (the §7 error shape, or near it) keeps its status, and its texts are
 *   read for what they mean and replaced by the SPEC.md §8 text of that meaning or of the call
 *   (./portal-refusal.ts): 422 'The email has already been taken.' stays the email-taken text,
 *   a 500 'Emulated failure of signup' becomes 'Failed to create an account';
 * - a non-2xx in another JSON shape keeps its status with code 'portal_error' and the call's text;
 * - no answer, no JSON, or a 2xx without a field the step needs: 502/504 with a code of ours.
 *
 * Bodies are rebuilt from what was read, so fields the contract does not name (and might not be
 * meant for page JavaScript) never reach the browser. `context` is what the worker knows of the
 * request (the looked-up number), which some answers are read against.
 */
export function browserAnswerOf(
  call: ApiCallName,
  outcome: PortalOutcome,
  context: AnswerContext = {},
): BrowserAnswer {
  if (outcome.kind === 'timed_out') {
    return { ok: false, refusal: refusal('portal_timeout'), drift: [] };
  }
  if (outcome.kind === 'unavailable') {
    return { ok: false, refusal: refusal('portal_unavailable'), drift: [] };
  }
  const json = parseJson(outcome.text);
  if (!json.ok) return { ok: false, refusal: refusal('portal_bad_response'), drift: [] };
  const status = outcome.status as ContentfulStatusCode;

  if (!isSuccess(outcome.status)) {
    const error = readAnswer(PORTAL_REFUSAL, json.value);
    if (!error.ok) {
      return {
        ok: false,
        refusal: portalErrorRefusal(status, unshapedRefusal(call).errors.messages),
        rawText: rawRefusalForLog([outcome.text]),
        drift: [],
      };
    }
    return {
      ok: true,
      status,
      body: mappedRefusal(call, error.value),
      accessToken: null,
      userId: null,
      errorCode: error.value.code ?? 'portal_refused',
      rawText: rawRefusalForLog(error.value.errors.messages),
      drift: error.drift,
    };
  }

  const shape: Field<unknown> = PORTAL_ANSWERS[call];
  const answer = readAnswer(shape, json.value, context);
  if (!answer.ok) {
    return {
      ok: false,
      refusal: refusal('portal_bad_response'),
      missing: answer.missing,
      drift: answer.drift,
    };
  }
  const signIn = SIGN_IN_CALLS.has(call) ? signInOf(answer.value as SignedInAnswer) : null;
  return {
    ok: true,
    status,
    body: signIn ? signIn.body : answer.value,
    accessToken: signIn?.accessToken ?? null,
    userId: signIn?.userId ?? null,
    errorCode: null,
    drift: answer.drift,
  };
}

/** A sign-in answer split into the token the worker keeps and the rest, for the browser. */
function signInOf({ data }: SignedInAnswer) {
  const { access_token: accessToken, ...account } = data;
  return {
    accessToken,
    userId: account.entity.external_user_id,
    body: { data: account },
  };
}
