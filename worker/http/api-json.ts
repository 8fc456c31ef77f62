import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import {
  type ApiCallName,
  type ApiErrorBody,
  PhonePathParam,
  PlanIdPathParam,
  PollingIdPathParam,
  parseIdempotencyKey,
} from '../../shared/api/contract';
import { WORKER_ERROR_STATUS } from '../../shared/api/worker-error-codes';
import type { Answers } from '../../shared/quiz/answers';
import { issueTexts } from '../../shared/validation-issues';
import type { ApiEnv } from '../request/envs';
import type { Answer } from './answer';

/**
 * The JSON of the browser's API (SPEC.md §7): the bodies a call may send (JSON only, under a size
 * limit) and how they are read, each part of a call held to the contract (its path's parameters,
 * its Idempotency-Key and its body, below), and the answers and refusals it is given.
 */

/** The worker's own refusals and their statuses (shared with the islands' error texts). */
export const API_ERROR_STATUS = WORKER_ERROR_STATUS satisfies Record<string, ContentfulStatusCode>;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS | 'portal_error';

/** A refusal as a value: what the browser is told, and why. */
export interface ApiRefusal {
  code: ApiErrorCode;
  status: ContentfulStatusCode;
  /** SPEC.md §7 `errors.messages`; empty unless a short readable reason helps the visitor. */
  messages: string[];
  retryAfterSeconds?: number;
}

export function refusal(code: keyof typeof API_ERROR_STATUS, messages: string[] = []): ApiRefusal {
  return { code, status: API_ERROR_STATUS[code], messages };
}

/**
 * The portal failed with a JSON body that is not the §7 error shape: its status is kept so the
 * island still sees e.g. a 400 from the phone lookup as "Phone number is incorrect" (SPEC.md §8),
 * with the call's SPEC.md §8 text (worker/portal-client/portal-refusal.ts), never the body's own
 * words.
 */
export function portalErrorRefusal(status: ContentfulStatusCode, messages: string[]): ApiRefusal {
  return { code: 'portal_error', status, messages };
}

/** API answers are per-visitor and may carry account data: never stored by any cache. */
export function apiJson(c: Answer, status: ContentfulStatusCode, body: unknown): Response {
  c.header('Cache-Control', 'no-store');
  return c.json(body, status);
}

/** The §7 error body of a refusal, as the browser reads it. */
export function refusalBody(refused: ApiRefusal): ApiErrorBody {
  return { errors: { messages: refused.messages }, code: refused.code };
}

/** Names the refusal on the request's log line and says when to try again, whatever answers it. */
export function noteRefusal(c: Answer, refused: ApiRefusal): void {
  c.get('logFields').error = refused.code;
  if (refused.retryAfterSeconds !== undefined) {
    c.header('Retry-After', String(refused.retryAfterSeconds));
  }
}

/** Answers a refusal and records its code on the request's log line. */
export function refuse(c: Answer, refused: ApiRefusal): Response {
  noteRefusal(c, refused);
  return apiJson(c, refused.status, refusalBody(refused));
}

/** Far above any SPEC.md §7 request (the contract caps every field), far below abuse. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Only JSON bodies. Besides matching the contract, this keeps out the content types a
 * cross-site HTML form can send without a CORS preflight.
 */
export function jsonOnly(): MiddlewareHandler<ApiEnv> {
  return async function jsonOnlyMiddleware(c, next) {
    if (!isJsonRequest(c.req.raw)) return refuse(c, refusal('unsupported_media_type'));
    await next();
  };
}

/** The request's media type, lower case, without parameters: `application/json`, `text/csv`. */
export function mediaTypeOf(request: Request): string | undefined {
  return request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
}

/** Whether the request says its body is JSON (`application/json`, any parameters). */
export function isJsonRequest(request: Request): boolean {
  return mediaTypeOf(request) === 'application/json';
}

export function jsonBodyLimit(): MiddlewareHandler<ApiEnv> {
  return bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => refuse(c, refusal('payload_too_large')),
  });
}

/** The parsed JSON body, or undefined when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}

/* What the browser's call carries, each part held to the contract before anything is forwarded. */

/** The contract shape of each `:param` of the §7 paths. */
const PATH_PARAMS: Record<string, z.ZodType<string>> = {
  phone: PhonePathParam,
  planId: PlanIdPathParam,
  pollingId: PollingIdPathParam,
};

/**
 * What a visitor is told when a parameter is refused: for the phone lookup the text SPEC.md §8
 * gives a non-200 lookup; the others are built by our own code, so a bad one is a bug to log.
 */
const REFUSAL_MESSAGES: Record<string, string[]> = { phone: ['Phone number is incorrect'] };

export type PathParamsReading =
  | { ok: true; values: Record<string, string> }
  | { ok: false; refusal: ApiRefusal; param: string };

/** Checks the (already URI-decoded) parameters of a call's path against the contract. */
export function readPathParams(path: string, given: Record<string, string>): PathParamsReading {
  const values: Record<string, string> = {};
  for (const [, name = ''] of path.matchAll(/:([A-Za-z]+)/g)) {
    const schema = PATH_PARAMS[name];
    const parsed = schema?.safeParse(given[name]);
    if (!parsed?.success) {
      return {
        ok: false,
        refusal: refusal('invalid_request', REFUSAL_MESSAGES[name] ?? []),
        param: name,
      };
    }
    values[name] = parsed.data;
  }
  return { ok: true, values };
}

export type IdempotencyKeyReading =
  | { ok: true; key: string | null }
  | { ok: false; refusal: ApiRefusal };

/**
 * The page's `Idempotency-Key` for a POST, passed on to the portal so a retried subscription
 * call (a timeout, a double click) answers the first charge instead of charging the card again.
 * Held to the contract's rule (parseIdempotencyKey) so a bad key is refused here.
 */
export function readIdempotencyKey(header: string | undefined): IdempotencyKeyReading {
  const parsed = parseIdempotencyKey(header);
  return parsed.ok ? parsed : { ok: false, refusal: refusal('invalid_request') };
}

/**
 * Calls whose body names the visitor and their split-test landing type (SPEC.md §3 User), and
 * their quiz's answers.
 */
const VISITOR_STAMPED_CALLS: ReadonlySet<ApiCallName> = new Set(['signup', 'socialSignIn']);

export function stampsVisitor(call: ApiCallName): boolean {
  return VISITOR_STAMPED_CALLS.has(call);
}

/** What the worker itself knows of the visitor a sign-up names. */
export interface StampedVisitor {
  visitorId: string;
  landingType: string;
  /** The quiz's answers kept for the visit (worker/request/kept-answers.ts). */
  answers?: Answers;
}

function stampedBody(json: Record<string, unknown>, visitor: StampedVisitor) {
  const { quiz_answers: _sent, ...own } = json;
  const answers = visitor.answers ?? {};
  return {
    ...own,
    user_uuid: visitor.visitorId,
    landing_type: visitor.landingType,
    ...(Object.keys(answers).length > 0 ? { quiz_answers: answers } : {}),
  };
}

export type BodyReading =
  | { ok: true; body: unknown }
  | { ok: false; refusal: ApiRefusal; detail: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The body to forward: the browser's JSON checked against the call's request schema. For sign-up
 * the worker's own visitor id and landing type replace whatever the page sent: they are what the
 * worker assigned (cookie, split test), and a page must not file an account under another
 * visitor or variant; so do the quiz's answers the visit kept (none sent when none were given,
 * whatever the page sent). Fields the contract does not name are dropped by the parse.
 */
export function prepareBody(
  call: ApiCallName,
  schema: z.ZodType,
  json: unknown,
  visitor: StampedVisitor,
): BodyReading {
  if (!isPlainObject(json)) {
    return { ok: false, refusal: refusal('invalid_request'), detail: 'body is not a JSON object' };
  }
  const stamped = VISITOR_STAMPED_CALLS.has(call) ? stampedBody(json, visitor) : json;
  const parsed = schema.safeParse(stamped);
  if (!parsed.success) {
    const detail = issueTexts(parsed.error).join('; ');
    return { ok: false, refusal: refusal('invalid_request'), detail };
  }
  return { ok: true, body: parsed.data };
}
