import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ApiEnv } from '../request/envs';
import { refusal, refuse } from './api-error';

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
