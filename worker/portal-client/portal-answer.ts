import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  type AnswerContext,
  type Field,
  readAnswer,
  type ShapeDrift,
} from '../../shared/api/answer-fields';
import type { ApiCallName } from '../../shared/api/contract';
import {
  PORTAL_ANSWERS,
  PORTAL_REFUSAL,
  type SignedInAnswer,
} from '../../shared/api/portal-answers';
import { type ApiRefusal, portalErrorRefusal, refusal } from '../http/api-json';
import type { PortalOutcome } from './portal-call';
import { mappedRefusal, rawRefusalForLog, unshapedRefusal } from './portal-refusal';

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
