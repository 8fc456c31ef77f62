import type { z } from 'zod';
import type { ApiCallName } from '../../shared/api/contract';
import { issueTexts } from '../../shared/validation-issues';
import { type ApiRefusal, refusal } from '../http/api-error';

/** Calls whose body names the visitor and their split-test landing type (SPEC.md §3 User). */
const VISITOR_STAMPED_CALLS: ReadonlySet<ApiCallName> = new Set(['signup', 'socialSignIn']);

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
 * visitor or variant. Fields the contract does not name are dropped by the parse.
 */
export function prepareBody(
  call: ApiCallName,
  schema: z.ZodType,
  json: unknown,
  visitor: { visitorId: string; landingType: string },
): BodyReading {
  if (!isPlainObject(json)) {
    return { ok: false, refusal: refusal('invalid_request'), detail: 'body is not a JSON object' };
  }
  const stamped = VISITOR_STAMPED_CALLS.has(call)
    ? { ...json, user_uuid: visitor.visitorId, landing_type: visitor.landingType }
    : json;
  const parsed = schema.safeParse(stamped);
  if (!parsed.success) {
    const detail = issueTexts(parsed.error).join('; ');
    return { ok: false, refusal: refusal('invalid_request'), detail };
  }
  return { ok: true, body: parsed.data };
}
