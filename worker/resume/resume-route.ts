import { Hono } from 'hono';
import type { TFunction } from 'i18next';
import { logLine } from '../../shared/log';
import type { Note } from '../http/answer';
import { spendDeeplinkToken } from '../portal-client/deeplink-consume';
import type { PortalFetch, Visit } from '../portal-client/portal-call';
import { writeAdCookie, writePins, writeVisitorCookie } from '../request/cookies';
import type { ResumeEnv } from '../request/envs';
import type { SignInAnswer } from '../request/signed-in-user';
import { noteOn, visitOf } from '../request/visit';
import { writeConsentCookie } from '../routes/consent';
import { PLAIN_PAGE_HEADERS } from '../routes/plain-page';
import { setSessionToken } from '../session/session-cookie';
import { restoredCookies } from './carried-state';
import {
  enteredStorage,
  RESUME_REFUSAL_STATUS,
  type ResumeRefusal,
  refusedPageHtml,
  resumePageHtml,
} from './resume-page';
import type { ResumeRecord } from './resume-record';
import { consumeResumeRecord, putBackResumeRecord } from './resume-store';
import { verifyResumeToken } from './resume-token';
import { openSignIn } from './sealed-sign-in';

/** The link's page names nobody to whoever it links to, nor is kept by any cache. */
const RESUME_PAGE_HEADERS = { ...PLAIN_PAGE_HEADERS, 'referrer-policy': 'no-referrer' } as const;

type RefusalReason =
  | 'not_configured'
  | 'malformed'
  | 'bad_signature'
  | 'used_or_expired'
  | 'unreadable'
  | 'sign_in_unsealed'
  | 'sign_in_spent'
  | 'sign_in_other_account'
  | 'sign_in_unavailable';

const SHOWN_AS: Record<RefusalReason, ResumeRefusal> = {
  not_configured: 'invalid',
  malformed: 'invalid',
  bad_signature: 'invalid',
  used_or_expired: 'expired',
  unreadable: 'expired',
  // The sealed login token does not open under this record: altered in the database.
  sign_in_unsealed: 'invalid',
  // The login token was used (the app's login link, say) or is not known.
  sign_in_spent: 'expired',
  // It signed in an account other than the one that asked for the link.
  sign_in_other_account: 'invalid',
  // The portal could not answer: the record is put back, and the same link works again.
  sign_in_unavailable: 'unavailable',
};

/** The page a refused link shows, and its status; the refusal logged. */
function refusedLink(
  page: { requestId: string; note: Note; t: TFunction; language: string },
  reason: RefusalReason,
  retry?: string,
): { html: string; status: (typeof RESUME_REFUSAL_STATUS)[ResumeRefusal] } {
  logLine({ id: page.requestId, event: 'resume_link_refused', reason });
  page.note('error', `resume_${reason}`);
  const refusal = SHOWN_AS[reason];
  const html = refusedPageHtml({ t: page.t, language: page.language, refusal, retry });
  return { html, status: RESUME_REFUSAL_STATUS[refusal] };
}

type SignedIn =
  | { ok: true; account: { userId: string | null } | null }
  | { ok: false; reason: RefusalReason };

/**
 * A record made after sign-up signs this browser in to the same account: its sealed login token
 * is spent with the portal for an access token, which goes into the session cookie as a sign-up
 * would have put it. A token that signs in another account than the record names is refused
 * (someone else's link, or a token of theirs): the session cookie is set only for the right one.
 */
async function signIn(
  { visit, answer }: { visit: Visit; answer: SignInAnswer },
  key: string,
  id: string,
  record: ResumeRecord,
  deps: { portalFetch?: PortalFetch },
): Promise<SignedIn> {
  if (record.signIn === null) return { ok: true, account: null };
  const token = await openSignIn(key, id, record.signIn.sealed);
  if (token === null) return { ok: false, reason: 'sign_in_unsealed' };
  const spent = await spendDeeplinkToken(visit, token, deps);
  if (spent.outcome === 'failed') return { ok: false, reason: 'sign_in_unavailable' };
  if (spent.outcome !== 'logged_in') return { ok: false, reason: 'sign_in_spent' };
  const expected = record.signIn.userId;
  if (spent.userId !== null && expected !== null && spent.userId !== expected) {
    return { ok: false, reason: 'sign_in_other_account' };
  }
  const userId = spent.userId ?? expected;
  setSessionToken(answer, spent.accessToken, userId ?? undefined);
  return { ok: true, account: { userId } };
}

/**
 * `GET /resume/<id>.<signature>`, the link `POST /api/resume` made, opened in the real browser:
 * checks the signature, takes the record out of the database (once), signs the browser in when
 * the link was made after sign-up (signIn below), sets the visitor's uuid,
 * variant, consent and ad cookies as their own middleware would, and answers a page that writes
 * what was entered into the islands' storage and goes on to the same screen and query. The
 * resume sub-app runs no visitor, route, experiments or attribution middleware
 * (worker/sub-apps/resume.ts), so nothing is drawn, assigned or exposed here: the screen that
 * follows finds the cookies.
 */
export function resumeRoutes(
  options: { now?: () => number; portalFetch?: PortalFetch } = {},
): Hono<ResumeEnv> {
  const now = options.now ?? Date.now;
  return new Hono<ResumeEnv>().get('/:token', async function openResumeLink(c) {
    const refuseLink = (reason: RefusalReason, retry?: string) => {
      const { requestId, t, language } = c.var;
      const refused = refusedLink({ requestId, note: noteOn(c), t, language }, reason, retry);
      return c.html(refused.html, refused.status, RESUME_PAGE_HEADERS);
    };
    const key = c.env.RESUME_LINK_KEY;
    if (!key) return refuseLink('not_configured');
    const verdict = await verifyResumeToken(key, c.req.param('token'));
    if (!verdict.ok) return refuseLink(verdict.reason);
    const consumed = await consumeResumeRecord(c.env.EVENTS_DB, verdict.id, now());
    if (!consumed.ok) return refuseLink(consumed.reason);

    const { record } = consumed;
    const signedIn = await signIn(
      { visit: visitOf(c), answer: c },
      key,
      verdict.id,
      record,
      options,
    );
    if (!signedIn.ok) {
      if (signedIn.reason !== 'sign_in_unavailable') return refuseLink(signedIn.reason);
      await putBackResumeRecord(c.env.EVENTS_DB, verdict.id, record, consumed.expiresAt, now());
      return refuseLink(signedIn.reason, new URL(c.req.url).pathname);
    }
    c.set('visitorId', record.visitorId);
    // Signed for the record's visitor id, just set as the request's
    // (worker/request/cookies.ts): they came from the signed cookies of that id.
    const restored = restoredCookies(record);
    writeVisitorCookie(c, restored.visitorId);
    await writePins(c, new Map(), restored.pins);
    if (restored.consent !== null) writeConsentCookie(c, restored.consent);
    // Each gets its full lifetime again: a request does not tell a cookie's age, so a kept click
    // (_fbc, _gf_ttclid) may outlive its attribution window, where it matches nothing.
    for (const [name, value] of restored.adCookies) writeAdCookie(c, name, value);
    const target = `/${record.screen}${record.search}`;
    logLine({
      id: c.get('requestId'),
      event: 'resume_link_used',
      screen: record.screen,
      variant: record.variant,
      signed_in: signedIn.account !== null,
    });
    const page = resumePageHtml({
      t: c.get('t'),
      language: c.get('language'),
      nonce: c.get('nonce'),
      target,
      entered: enteredStorage(record.entered, record.from, signedIn.account),
    });
    return c.html(page, 200, RESUME_PAGE_HEADERS);
  });
}
