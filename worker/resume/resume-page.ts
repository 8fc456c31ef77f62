import { html, raw } from 'hono/html';
import type { TFunction } from 'i18next';
import { persistedKey } from '../../islands/stores/persisted-key';
import { ESCAPE_COMPLETED_KEY } from '../../shared/api/resume-paths';
import { formatInternational } from '../../shared/phone/phone-number';
import { directionOf } from '../i18n';
import { plainPageHtml } from '../routes/plain-page';
import type { ResumeRecord } from './resume-record';

/** Why a resume link did not open, as the visitor is told. */
export type ResumeRefusal = 'invalid' | 'expired' | 'unavailable';

/**
 * A made-up or altered token is a bad request; a real one used or out of time is gone; one
 * whose sign-in the portal could not answer is kept, to open again (503).
 */
export const RESUME_REFUSAL_STATUS: Record<ResumeRefusal, 400 | 410 | 503> = {
  invalid: 400,
  expired: 410,
  unavailable: 503,
};

const CSS =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f}' +
  'main{max-width:480px;margin:0 auto;padding:32px 24px}h1{font-size:24px}a{color:#2f6bff}';

/**
 * What the visitor entered, as the islands' persisted slices keep it in localStorage
 * (islands/stores/persisted-slice.ts: `gf:<slice>:<field>`, each a JSON value): the email of the
 * signup slice, the plan of the plans slice, the number of the map slice (E.164, and as shown);
 * for a visitor the link signed in, the signup slice's account (SPEC.md §4 Signup: isSuccess and
 * the user id; the checkout asks for the payment settings itself).
 */
export function enteredStorage(
  entered: ResumeRecord['entered'],
  from: ResumeRecord['from'] = null,
  account: { userId: string | null } | null = null,
): Record<string, string> {
  const items: Record<string, string> = {};
  if (account !== null) {
    items[persistedKey('signup', 'isSuccess')] = JSON.stringify(true);
    if (account.userId !== null) {
      items[persistedKey('signup', 'userId')] = JSON.stringify(account.userId);
    }
  }
  // For the screen it opens: the way out of that in-app browser was completed.
  if (from !== null) items[ESCAPE_COMPLETED_KEY] = JSON.stringify(from);
  if (entered.email !== undefined)
    items[persistedKey('signup', 'email')] = JSON.stringify(entered.email);
  if (entered.planId !== undefined)
    items[persistedKey('plans', 'plan')] = JSON.stringify(entered.planId);
  if (entered.phone !== undefined) {
    items[persistedKey('map', 'phone')] = JSON.stringify(entered.phone);
    items[persistedKey('map', 'phoneDisplay')] = JSON.stringify(formatInternational(entered.phone));
  }
  return items;
}

/**
 * Writes the entered fields before the funnel's scripts load, then opens the screen in place of
 * this page (so Back does not come here again). Reads its data from <body>'s attributes, which
 * the server escaped; storage may be refused (private modes), and the screen opens anyway.
 */
const RESTORE = `(() => {
  const data = document.body.dataset;
  try {
    for (const [key, value] of Object.entries(JSON.parse(data.entered))) {
      localStorage.setItem(key, value);
    }
  } catch {}
  location.replace(data.target);
})();`;

/** The page a valid link answers: it restores what was entered and goes on to `target`. */
export function resumePageHtml(page: {
  t: TFunction;
  language: string;
  nonce: string;
  target: string;
  entered: Record<string, string>;
}): string {
  const { t } = page;
  const title = t('resume.opening');
  return plainPageHtml({
    language: page.language,
    title,
    body: html`<main dir="${directionOf(page.language)}"><h1>${title}</h1>
<p><a href="${page.target}">${t('continue')}</a></p>
<noscript><meta http-equiv="refresh" content="0;url=${page.target}"></noscript>
</main><script nonce="${page.nonce}">${raw(RESTORE)}</script>`,
    css: CSS,
    data: { target: page.target, entered: JSON.stringify(page.entered) },
  });
}

/**
 * The page a link that cannot be opened answers, with the way back to the start, and for a link
 * kept to open again (`retry`, its own path) the way to try it once more.
 */
export function refusedPageHtml(page: {
  t: TFunction;
  language: string;
  refusal: ResumeRefusal;
  retry?: string;
}): string {
  const { t, refusal } = page;
  const title = t(`resume.${refusal}.title`);
  const retry =
    page.retry === undefined ? '' : html`<p><a href="${page.retry}">${t('resume.retry')}</a></p>`;
  return plainPageHtml({
    language: page.language,
    title,
    body: html`<main dir="${directionOf(page.language)}"><h1>${title}</h1>
<p>${t(`resume.${refusal}.lead`)}</p>
${retry}<p><a href="/">${t('resume.restart')}</a></p>
</main>`,
    css: CSS,
  });
}
