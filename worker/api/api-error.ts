import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody } from '../../shared/api/contract';
import type { AppEnv } from '../env';

/**
 * Every reason the worker answers an `/api` call itself, with its HTTP status. The code travels
 * in the body (`ApiErrorBody.code`) so the islands map it to the SPEC.md §8 text in one place,
 * and in the request's log line so ops can count it.
 */
export const API_ERROR_STATUS = {
  invalid_request: 400,
  not_signed_in: 401,
  google_token_invalid: 401,
  cross_origin: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  portal_unavailable: 502,
  portal_bad_response: 502,
  google_keys_unavailable: 502,
  portal_not_configured: 503,
  google_not_configured: 503,
  portal_timeout: 504,
} as const satisfies Record<string, ContentfulStatusCode>;

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
 * island still sees e.g. a 400 from the phone lookup as "Phone number is incorrect" (SPEC.md §8).
 */
export function portalErrorRefusal(status: ContentfulStatusCode): ApiRefusal {
  return { code: 'portal_error', status, messages: [] };
}

/** API answers are per-visitor and may carry account data: never stored by any cache. */
export function apiJson(c: Context<AppEnv>, status: ContentfulStatusCode, body: unknown): Response {
  c.header('Cache-Control', 'no-store');
  return c.json(body, status);
}

/** Answers a refusal and records its code on the request's log line. */
export function refuse(c: Context<AppEnv>, refused: ApiRefusal): Response {
  c.get('logFields').error = refused.code;
  if (refused.retryAfterSeconds !== undefined) {
    c.header('Retry-After', String(refused.retryAfterSeconds));
  }
  const body: ApiErrorBody = { errors: { messages: refused.messages }, code: refused.code };
  return apiJson(c, refused.status, body);
}
