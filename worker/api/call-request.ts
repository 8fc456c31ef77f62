import type { z } from 'zod';
import {
  type ApiCallName,
  PhonePathParam,
  PlanIdPathParam,
  PollingIdPathParam,
  parseIdempotencyKey,
} from '../../shared/api/contract';
import { issueTexts } from '../../shared/validation-issues';
import { type ApiRefusal, refusal } from '../http/api-json';

/**
 * What the browser's call carries, each part held to the contract before anything is forwarded:
 * its path's parameters, its Idempotency-Key and its body.
 */

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
