import { html, raw } from 'hono/html';
import type { TFunction } from 'i18next';
import type { Brand } from '../../shared/brand';
import { directionOf } from '../i18n';
import type { HtmlFragment } from '../render/html-text';
import { plainPageHtml } from './plain-page';

/**
 * The pages of the deeplink's login link (worker/routes/app-login.ts), in the visitor's language
 * (`after.login.*` in locales/).
 */

/** What consuming the token came to, or `open`: the link's page, before anything is consumed. */
export type LoginPageKind = 'open' | 'logged_in' | 'used' | 'unknown' | 'failed';

export const LOGIN_PAGE_STATUS: Record<LoginPageKind, 200 | 404 | 410 | 502> = {
  open: 200,
  logged_in: 200,
  used: 410,
  unknown: 404,
  failed: 502,
};

const CSS =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f}' +
  'main{max-width:480px;margin:0 auto;padding:32px 24px}h1{font-size:24px}a{color:#2f6bff}' +
  'button{font:inherit;font-weight:600;color:#fff;background:#2f6bff;border:0;border-radius:12px;' +
  'padding:14px 24px;width:100%;cursor:pointer}';

/**
 * Submits the login form for the person who opened the link, so they need not press the button.
 * Link previewers (chat apps' unfurlers, mail scanners) fetch the page without running scripts,
 * so they stop at the GET, which consumes nothing. A browser that loads the page without showing
 * it (a prerender, a tab opened in the background) runs scripts but has no one looking: the form
 * waits until the page is both shown and not prerendering. Safe because it adds no power: the
 * token in the URL is the credential, and whoever holds the URL could POST it anyway; what the
 * script can cost is only convenience, if something that runs scripts and shows the page opens
 * the link first (the person then reads "already used" and logs in with their email). The
 * button stays for no-script browsers. Sends at most once, however many of the two fire.
 */
const AUTO_SUBMIT = `(() => {
  const form = document.getElementById('login');
  let sent = false;
  form.addEventListener('submit', (event) => {
    if (sent) event.preventDefault();
    sent = true;
  });
  const submitOnceShown = () => {
    if (sent || document.visibilityState !== 'visible' || document.prerendering) return;
    if (form.requestSubmit) return form.requestSubmit();
    sent = true;
    form.submit();
  };
  document.addEventListener('visibilitychange', submitOnceShown);
  document.addEventListener('prerenderingchange', submitOnceShown);
  submitOnceShown();
})();`;

function storeLinks(brand: Brand): HtmlFragment {
  return html`<ul>
<li><a href="${brand.stores.appStore}">App Store</a></li>
<li><a href="${brand.stores.googlePlay}">Google Play</a></li>
</ul>`;
}

/** The link's page: a form that POSTs the token back, pressed by the person or by AUTO_SUBMIT. */
function openBody(t: TFunction, token: string, nonce: string): HtmlFragment {
  return html`<p>${t('after.login.open.lead')}</p>
<form id="login" method="post" action="/app/login">
<input type="hidden" name="token" value="${token}">
<button type="submit">${t('after.login.open.button')}</button>
</form>
<script nonce="${nonce}">${raw(AUTO_SUBMIT)}</script>`;
}

export function loginPageHtml(page: {
  kind: LoginPageKind;
  t: TFunction;
  language: string;
  /** Whose app the page opens: its store links (shared/brand.ts). */
  brand: Brand;
  /** For `open`: the token the form posts, and the CSP nonce of its script. */
  token?: string;
  nonce?: string;
}): string {
  const { kind, t } = page;
  const title = t(`after.login.${kind}.title`);
  const content =
    kind === 'open'
      ? openBody(t, page.token ?? '', page.nonce ?? '')
      : html`<p>${t(`after.login.${kind}.lead`)}</p>${storeLinks(page.brand)}`;
  return plainPageHtml({
    language: page.language,
    title,
    body: html`<main dir="${directionOf(page.language)}"><h1>${title}</h1>${content}</main>`,
    css: CSS,
  });
}
