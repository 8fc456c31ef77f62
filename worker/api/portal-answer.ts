import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  API_CALLS,
  type ApiCallName,
  ApiErrorBody,
  BrowserSignupResponse,
  SignupResponse,
} from '../../shared/api/contract';
import { type ApiRefusal, portalErrorRefusal, refusal } from './api-error';
import type { PortalOutcome } from './portal-exchange';

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
      /** For the log line of a passed-through failure: the portal's code, else 'portal_refused'. */
      errorCode: string | null;
    }
  | { ok: false; refusal: ApiRefusal };

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
 * - a 2xx in the call's contract shape passes with its status; sign-in answers lose the token;
 * - a non-2xx in the §7 error shape passes as it is (e.g. 422 'The email has already been taken.');
 * - a non-2xx in another JSON shape keeps its status with code 'portal_error';
 * - no answer, no JSON, or a 2xx outside the contract: 502/504 with a code of ours.
 *
 * Bodies are re-serialised from the parsed shapes, so fields the contract does not name (and
 * might not be meant for page JavaScript) never reach the browser.
 */
export function browserAnswerOf(call: ApiCallName, outcome: PortalOutcome): BrowserAnswer {
  if (outcome.kind === 'timed_out') return { ok: false, refusal: refusal('portal_timeout') };
  if (outcome.kind === 'unavailable') return { ok: false, refusal: refusal('portal_unavailable') };
  const json = parseJson(outcome.text);
  if (!json.ok) return { ok: false, refusal: refusal('portal_bad_response') };
  const status = outcome.status as ContentfulStatusCode;

  if (!isSuccess(outcome.status)) {
    const error = ApiErrorBody.safeParse(json.value);
    return error.success
      ? {
          ok: true,
          status,
          body: error.data,
          accessToken: null,
          userId: null,
          errorCode: error.data.code ?? 'portal_refused',
        }
      : { ok: false, refusal: portalErrorRefusal(status) };
  }

  if (SIGN_IN_CALLS.has(call)) {
    const signedIn = SignupResponse.safeParse(json.value);
    if (!signedIn.success) return { ok: false, refusal: refusal('portal_bad_response') };
    return {
      ok: true,
      status,
      body: BrowserSignupResponse.parse(signedIn.data),
      accessToken: signedIn.data.data.access_token,
      userId: signedIn.data.data.entity.external_user_id,
      errorCode: null,
    };
  }
  const answer = API_CALLS[call].response.safeParse(json.value);
  if (!answer.success) return { ok: false, refusal: refusal('portal_bad_response') };
  return { ok: true, status, body: answer.data, accessToken: null, userId: null, errorCode: null };
}
