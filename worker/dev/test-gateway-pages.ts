import { html } from 'hono/html';
import { clientChunk } from '../render/client-build';
import { plainPageHtml } from '../routes/plain-page';

/**
 * The test gateway's own pages: the card fields page the checkout frames, and the 3-D
 * Secure challenge page. Their scripts are Vite entries (test-gateway/*.ts, vite.config.ts).
 */

function scriptUrl(entry: string): string {
  return `/${clientChunk(entry).file}`;
}

const FRAME_CSS =
  'html,body{margin:0;background:transparent;font:16px/1.4 system-ui,sans-serif;color:#1b1b1f}' +
  'form{display:grid;gap:12px;padding:2px}label{display:block;font-size:14px;margin-bottom:4px}' +
  'input{box-sizing:border-box;width:100%;padding:12px;font:inherit;border:1px solid #8a8a99;border-radius:8px}' +
  'input:focus{outline:2px solid #2f6bff;outline-offset:1px}.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}' +
  '#card-error{margin:0;color:#b00020;font-size:14px;min-height:1em}';

/** GET /test-gateway/card-frame: card number, MM/YY and CVC, labelled, with autofill hints. */
export function cardFramePage(nonce: string): string {
  const body = html`<form novalidate aria-label="Card details">
<div><label for="card-number">Card number</label>
<input id="card-number" name="cardnumber" autocomplete="cc-number" inputmode="numeric" placeholder="1234 1234 1234 1234" maxlength="23" spellcheck="false"></div>
<div class="row"><div><label for="card-expiry">MM/YY</label>
<input id="card-expiry" name="exp-date" autocomplete="cc-exp" inputmode="numeric" placeholder="MM/YY" maxlength="7"></div>
<div><label for="card-cvc">CVV</label>
<input id="card-cvc" name="cvc" autocomplete="cc-csc" inputmode="numeric" placeholder="CVC" maxlength="4"></div></div>
<p id="card-error" role="alert"></p>
</form>`;
  return plainPageHtml({
    title: 'Card details',
    body,
    css: FRAME_CSS,
    script: { url: scriptUrl('test-gateway/card-frame.ts'), nonce },
  });
}

const CHALLENGE_CSS =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f;background:#fff}' +
  'main{max-width:420px;margin:0 auto;padding:24px}h1{font-size:20px}' +
  'button{display:block;width:100%;margin:12px 0;padding:12px;font:inherit;border-radius:8px;border:1px solid #1b1b1f;cursor:pointer}' +
  'button[data-outcome=complete]{background:#1b1b1f;color:#fff}button:disabled{opacity:.6;cursor:default}';

/** GET /test-gateway/challenge/{intentId}: like Stripe's test 3-D Secure page. */
export function challengePage(nonce: string, intentId: string): string {
  const body = html`<main><h1>3D Secure test authentication</h1>
<p>This is a test payment page of the test gateway. No real bank is asked: choose how the
authentication ends.</p>
<button type="button" data-outcome="complete">Complete authentication</button>
<button type="button" data-outcome="fail">Fail authentication</button>
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
