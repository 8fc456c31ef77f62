import type { z } from 'zod';
import { PhonePathParam, PlanIdPathParam, PollingIdPathParam } from '../../shared/api/contract';
import { type ApiRefusal, refusal } from '../http/api-error';

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
