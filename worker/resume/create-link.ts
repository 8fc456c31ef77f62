import type { Handler } from 'hono';
import { type ResumeAnswer, ResumeRequest } from '../../shared/api/resume';
import { RESUME_PAGE_PATH } from '../../shared/api/resume-paths';
import { detectInAppBrowser } from '../../shared/in-app-browser';
import { logError, logLine } from '../../shared/log';
import { issueTexts } from '../../shared/validation-issues';
import { apiJson, readJsonBody, refusal, refuse } from '../http/api-json';
import { limitRefusal, RESUME_LINK_RULES } from '../rate-limits/rate-limit-gate';
import { signedCookiesOf } from '../request/cookies';
import type { ApiEnv } from '../request/envs';
import { sessionToken, sessionUserId } from '../request/signed-in-user';
import { rateAskerOf } from '../request/visit';
import { carriedState } from './carried-state';
import { saveResumeRecord } from './resume-store';
import { newResumeId, signResumeId } from './resume-token';
import { sealSignIn } from './sealed-sign-in';

/**
 * `POST /api/resume` (behind /api's same-origin, JSON-only and body-size guards): stores what the
 * visitor's real browser needs to carry on (resume-record.ts) under a fresh id for 15 minutes
 * (with, after sign-up, the sealed login token that signs that browser in), and answers the
 * signed link `<origin>/resume/<id>.<signature>` to open there.
 */
export function createResumeLink(deps: { now: () => number }): Handler<ApiEnv> {
  return async function createResumeLinkHandler(c) {
    const fields = c.get('logFields');
    fields.call = 'resume';
    const requestId = c.get('requestId');
    const key = c.env.RESUME_LINK_KEY;
    if (!key) {
      logError('resume_not_configured', { id: requestId });
      return refuse(c, refusal('resume_not_configured'));
    }
    const parsed = ResumeRequest.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) {
      fields.detail = issueTexts(parsed.error).join('; ');
      return refuse(c, refusal('invalid_request'));
    }
    const limited = await limitRefusal(rateAskerOf(c), 'resume', RESUME_LINK_RULES, {
      phone: null,
    });
    if (limited) return refuse(c, limited);

    const { screen, search = '', entered = {}, loginToken } = parsed.data;
    // A login token goes only with the account this browser is signed in to.
    if (loginToken !== undefined && sessionToken(c) === null) {
      fields.detail = 'login token without a session';
      return refuse(c, refusal('invalid_request'));
    }
    const from = detectInAppBrowser(c.req.header('user-agent'), {
      platform: c.req.header('sec-ch-ua-platform'),
    });
    const id = newResumeId();
    const signIn =
      loginToken === undefined
        ? null
        : {
            sealed: await sealSignIn(key, id, loginToken),
            userId: await sessionUserId(signedCookiesOf(c)),
          };
    const carried = carriedState({
      visitorId: c.get('visitorId'),
      pins: c.get('experiments').pins,
      preview: c.get('preview') !== undefined,
      country: c.get('country'),
      consentCountries: c.env.CONSENT_COUNTRIES,
      cookieHeader: c.req.header('cookie'),
    });
    const record = { ...carried, screen, search, entered, from, signIn };
    const { expiresAt } = await saveResumeRecord(c.env.EVENTS_DB, id, record, deps.now());
    const token = await signResumeId(key, id);
    logLine({
      id: requestId,
      event: 'resume_link_created',
      screen,
      variant: record.variant,
      entered: Object.keys(entered).sort().join(',') || null,
      signed_in: signIn !== null,
    });
    const answer: ResumeAnswer = {
      url: `${new URL(c.req.url).origin}${RESUME_PAGE_PATH}/${token}`,
      expiresAt: new Date(expiresAt).toISOString(),
    };
    return apiJson(c, 200, answer);
  };
}
