import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody } from '../../shared/api/contract';
import { WORKER_ERROR_STATUS } from '../../shared/api/worker-error-codes';
import type { ApiEnv } from '../request/envs';
import type { Answer } from './answer';

/**
 * The JSON of the browser's API (SPEC.md §7): the bodies a call may send (JSON only, under a size
 * limit) and how they are read, and the answers and refusals it is given.
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

/** Whether the request says its body is JSON (`application/json`, any parameters). */
export function isJsonRequest(request: Request): boolean {
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
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
