import { html } from 'hono/html';
import { directionOf, SUPPORTED_LANGUAGES } from '../i18n';
import { clientChunk } from '../render/client-build';
import type { HtmlFragment } from '../render/html-text';
import { plainPageHtml } from '../routes/plain-page';

/**
 * The test gateway's own pages: the card fields page the checkout frames, and the 3-D
 * Secure challenge page. Their scripts are Vite entries (test-gateway/*.ts, vite.config.ts).
 */

function scriptUrl(entry: string): string {
  return `/${clientChunk(entry).file}`;
}

/**
 * The fields look like Stripe's Elements in our kit: 51 px inputs (SPEC.md §9), the page's colours
 * once the checkout sends them (tgw:labels), a focus ring, the field's own message under it. The
 * body keeps 3 px around the form for the ring, so the frame's height without messages is
 * CARD_FRAME_HEIGHT (shared/test-gateway-protocol.ts; the checkout reserves it before the frame
 * loads).
 */
const FRAME_CSS =
  ':root{--ink:#1b1b1f;--muted:#5c5c6b;--surface:#fff;--brand:#2f6bff;--danger:#b42318;--font:system-ui,sans-serif}' +
  'html,body{margin:0;background:transparent;font:16px/20px var(--font);color:var(--ink)}' +
  'body{padding:3px}form{display:grid;gap:12px}' +
  'label{display:block;font-size:14px;line-height:20px;margin-bottom:4px;color:var(--muted)}' +
  // Card numbers, dates and codes read left to right in every language, as on the card.
  '.input{position:relative;direction:ltr}' +
  'input{box-sizing:border-box;display:block;width:100%;height:51px;padding:0 14px;font:inherit;color:var(--ink);' +
  'background:var(--surface);border:1px solid color-mix(in srgb,var(--ink) 22%,transparent);border-radius:12px;' +
  'transition:border-color .15s,box-shadow .15s}' +
  'input::placeholder{color:color-mix(in srgb,var(--muted) 70%,transparent)}' +
  'input:focus{outline:none;border-color:var(--brand);box-shadow:0 0 0 3px color-mix(in srgb,var(--brand) 25%,transparent)}' +
  'input[aria-invalid=true]{border-color:var(--danger)}' +
  'input[aria-invalid=true]:focus{box-shadow:0 0 0 3px color-mix(in srgb,var(--danger) 25%,transparent)}' +
  '#card-number{padding-inline-end:64px}' +
  '.brand{position:absolute;inset-inline-end:14px;top:50%;transform:translateY(-50%);font-size:12px;font-weight:700;' +
  'letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}' +
  '.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}' +
  '.error{margin:4px 0 0;color:var(--danger);font-size:14px;line-height:18px}';

/** One labelled field with its message slot, described by it when a message shows. */
function cardField(id: string, label: string, input: HtmlFragment, after: HtmlFragment = html``) {
  return html`<div><label for="${id}">${label}</label>
<div class="input">${input}${after}</div>
<p id="${id}-error" class="error" hidden></p></div>`;
}

/**
 * GET /test-gateway/card-frame: card number, MM/YY and CVC, labelled, with autofill hints, in
 * the checkout's language and direction (`lang`, one of ours, else English). `withScript` false
 * is a provider's script that never arrives (the `script-*` faults, portal/faults.ts): the fields
 * stand there and never become usable.
 */
export function cardFramePage(nonce: string, lang: string, withScript = true): string {
  const language = SUPPORTED_LANGUAGES.includes(lang) ? lang : 'en';
  const number = cardField(
    'card-number',
    'Card number',
    html`<input id="card-number" name="cardnumber" autocomplete="cc-number" inputmode="numeric" placeholder="1234 1234 1234 1234" maxlength="23" spellcheck="false">`,
    html`<span class="brand" id="card-brand" aria-hidden="true"></span>`,
  );
  const expiry = cardField(
    'card-expiry',
    'Expiry date',
    html`<input id="card-expiry" name="exp-date" autocomplete="cc-exp" inputmode="numeric" placeholder="MM/YY" maxlength="5">`,
  );
  const cvc = cardField(
    'card-cvc',
    'CVV',
    html`<input id="card-cvc" name="cvc" autocomplete="cc-csc" inputmode="numeric" placeholder="CVV" maxlength="3">`,
  );
  const body = html`<form novalidate aria-label="Card details" dir="${directionOf(language)}">${number}
<div class="row">${expiry}${cvc}</div>
</form>`;
  return plainPageHtml({
    language,
    title: 'Card details',
    body,
    css: FRAME_CSS,
    script: withScript ? { url: scriptUrl('test-gateway/card-frame.ts'), nonce } : undefined,
  });
}

/**
 * The challenge as a bank's sheet: a short explanation and the two answers as full-width 51 px
 * buttons, which fit the checkout's sheet at 320 px wide and 568 px tall without scrolling. The
 * buttons come disabled and the page's script enables them once it listens, so a press before
 * the script has loaded is not silently lost.
 */
const CHALLENGE_CSS =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f;background:#fff}' +
  'main{max-width:420px;margin:0 auto;padding:20px 20px 16px}' +
  '.bank{margin:0 0 12px;font-size:13px;font-weight:700;letter-spacing:.06em;text-transform:uppercase;color:#5c5c6b}' +
  'h1{margin:0 0 8px;font-size:20px;line-height:1.3}p{margin:0 0 16px}' +
  'button{display:block;box-sizing:border-box;width:100%;height:51px;margin:0 0 12px;font:inherit;font-weight:600;' +
  'border-radius:12px;border:1px solid #1b1b1f;background:#fff;color:#1b1b1f;cursor:pointer}' +
  'button[data-outcome=complete]{background:#1b1b1f;color:#fff}button:disabled{opacity:.6;cursor:default}' +
  'button:focus-visible{outline:3px solid #2f6bff;outline-offset:2px}' +
  '#challenge-status{margin:0;min-height:24px;color:#5c5c6b}';

/** GET /test-gateway/challenge/{intentId}: like Stripe's test 3-D Secure page. */
export function challengePage(nonce: string, intentId: string): string {
  const body = html`<main><p class="bank">Test bank</p><h1>3D Secure test authentication</h1>
<p>This is a test payment page of the test gateway. No real bank is asked: choose how the
authentication ends.</p>
<button type="button" data-outcome="complete" disabled>Complete authentication</button>
<button type="button" data-outcome="fail" disabled>Fail authentication</button>
<p id="challenge-status" role="status"></p></main>`;
  return plainPageHtml({
    title: '3D Secure test authentication',
    body,
    css: CHALLENGE_CSS,
    data: { 'intent-id': intentId },
    script: { url: scriptUrl('test-gateway/challenge.ts'), nonce },
  });
}

/** The challenge page of an intent the gateway does not know. */
export function unknownChallengePage(): string {
  return plainPageHtml({
    title: 'Not found',
    body: html`<main><h1>This authentication is not known.</h1></main>`,
    css: CHALLENGE_CSS,
  });
}
