import { type Context, Hono } from 'hono';
import { logLine } from '../../shared/log';
import type { AppEnv } from '../env';
import { PLAIN_PAGE_HEADERS } from '../routes/plain-page';
import { restoreCookies } from './carried-state';
import {
  enteredStorage,
  RESUME_REFUSAL_STATUS,
  type ResumeRefusal,
  refusedPageHtml,
  resumePageHtml,
} from './resume-page';
import { consumeResumeRecord } from './resume-store';
import { verifyResumeToken } from './resume-token';

/** The link's page names nobody to whoever it links to, nor is kept by any cache. */
const RESUME_PAGE_HEADERS = { ...PLAIN_PAGE_HEADERS, 'referrer-policy': 'no-referrer' } as const;

type RefusalReason =
  | 'not_configured'
  | 'malformed'
  | 'bad_signature'
  | 'used_or_expired'
  | 'unreadable';

const SHOWN_AS: Record<RefusalReason, ResumeRefusal> = {
  not_configured: 'invalid',
  malformed: 'invalid',
  bad_signature: 'invalid',
  used_or_expired: 'expired',
  unreadable: 'expired',
};

function refuseLink(c: Context<AppEnv>, reason: RefusalReason): Response | Promise<Response> {
  logLine({ id: c.get('requestId'), event: 'resume_link_refused', reason });
  c.get('logFields').error = `resume_${reason}`;
  const refusal = SHOWN_AS[reason];
  const page = refusedPageHtml({ t: c.get('t'), language: c.get('language'), refusal });
  return c.html(page, RESUME_REFUSAL_STATUS[refusal], RESUME_PAGE_HEADERS);
}

/**
 * `GET /resume/<id>.<signature>`, the link `POST /api/resume` made, opened in the real browser:
 * checks the signature, takes the record out of the database (once), sets the visitor's uuid,
 * variant, consent and ad cookies as their own middleware would, and answers a page that writes
 * what was entered into the islands' storage and goes on to the same screen and query. The
 * app runs no visitor, split-test or attribution middleware on this path (worker/app.tsx), so
 * nothing is drawn, assigned or exposed here: the screen that follows finds the cookies.
 */
export function resumeRoutes(options: { now?: () => number } = {}): Hono<AppEnv> {
  const now = options.now ?? Date.now;
  return new Hono<AppEnv>().get('/:token', async function openResumeLink(c) {
    const key = c.env.RESUME_LINK_KEY;
    if (!key) return refuseLink(c, 'not_configured');
    const verdict = await verifyResumeToken(key, c.req.param('token'));
    if (!verdict.ok) return refuseLink(c, verdict.reason);
    const consumed = await consumeResumeRecord(c.env.EVENTS_DB, verdict.id, now());
    if (!consumed.ok) return refuseLink(c, consumed.reason);

    const { record } = consumed;
    c.set('visitorId', record.visitorId);
    restoreCookies(c, record);
    const target = `/${record.screen}${record.search}`;
    logLine({
      id: c.get('requestId'),
      event: 'resume_link_used',
      screen: record.screen,
      variant: record.variant,
    });
    const page = resumePageHtml({
      t: c.get('t'),
      language: c.get('language'),
      nonce: c.get('nonce'),
      target,
      entered: enteredStorage(record.entered, record.from),
    });
    return c.html(page, 200, RESUME_PAGE_HEADERS);
  });
}
