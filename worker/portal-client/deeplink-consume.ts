import { readAnswer } from '../../shared/api/answer-fields';
import { DEEPLINK_CONSUME_CALL } from '../../shared/api/contract';
import { DEEPLINK_CONSUME_ANSWER } from '../../shared/api/portal-answers';
import { logError, logWarning } from '../../shared/log';
import { type PortalFetch, sendToPortal, type Visit } from './portal-call';

/** What spending a one-time login token came to: the account's session, or why not. */
export type DeeplinkSignIn =
  | { outcome: 'logged_in'; accessToken: string; userId: string | null }
  | { outcome: 'used' | 'unknown' | 'failed' };

/**
 * Spends a one-time login token (DEEPLINK_CONSUME_CALL of the contract, through the same
 * transport as `/api`) for the access token of its account, which the caller puts in the
 * session cookie (session/session-cookie.ts). The success screen's login link (routes/app-login.ts)
 * and a resume link made after sign-up (resume/resume-route.ts) both sign in this way; the
 * portal answers a second use with 410. The visit gives its execution context, which the
 * transport hands the embedded portal (./portal-call.ts), as the `/api` call does.
 */
export async function spendDeeplinkToken(
  visit: Visit,
  token: string,
  deps: { portalFetch?: PortalFetch },
): Promise<DeeplinkSignIn> {
  const sent = await sendToPortal(
    visit,
    {
      name: 'deeplinkConsume',
      call: DEEPLINK_CONSUME_CALL,
      path: DEEPLINK_CONSUME_CALL.path,
      body: { token },
      bearer: null,
      idempotencyKey: null,
    },
    deps.portalFetch,
  );
  if (!sent.ok) return { outcome: 'failed' };
  const answer = sent.outcome;
  if (answer.kind !== 'answered') return { outcome: 'failed' };
  if (answer.status === 410) return { outcome: 'used' };
  if (answer.status === 404) return { outcome: 'unknown' };
  if (answer.status !== 200) return { outcome: 'failed' };
  const consumed = readAnswer(DEEPLINK_CONSUME_ANSWER, parsedJson(answer.text));
  for (const { field, found } of consumed.drift) {
    logWarning('portal_shape', { id: visit.requestId, call: 'deeplinkConsume', field, found });
  }
  if (!consumed.ok) {
    logError('portal_bad_response', {
      id: visit.requestId,
      call: 'deeplinkConsume',
      missing: consumed.missing,
    });
    return { outcome: 'failed' };
  }
  const { access_token: accessToken, external_user_id: userId } = consumed.value.data;
  return { outcome: 'logged_in', accessToken, userId: userId ?? null };
}

/** The answer's JSON, or undefined when it is none (then read as an answer without its fields). */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
