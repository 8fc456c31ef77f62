import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { PATIENCE_MS } from './patience';

/** The Stripe.js release @stripe/stripe-js expects, which the real script names itself. */
const RELEASE_TRAIN =
  /RELEASE_TRAIN = '(\w+)'/.exec(
    readFileSync('node_modules/@stripe/stripe-js/dist/pure.js', 'utf8'),
  )?.[1] ?? 'v3';

/**
 * Stripe.js as js.stripe.com serves it, stood in by the test's network (the tests' Chromium
 * reaches no host but localhost): a global `Stripe(key)` with the methods the adapters call, in
 * Stripe's shapes. Elements mount a plain input into the slot; `paymentRequest().canMakePayment()`
 * answers what `wallets` says, as Stripe answers from the browser's own wallet check (null:
 * neither Apple Pay nor Google Pay here), after `answerMs` as the browser's check takes its time.
 * `window.__walletSheets` counts the sheets shown, `window.__walletAnswers` the answers given.
 */
function fakeStripeJs(
  wallets: { applePay: boolean; googlePay: boolean } | null,
  answerMs: number,
): string {
  return `(() => {
  const answer = ${JSON.stringify(wallets)};
  window.__walletSheets = 0;
  window.__walletAnswers = 0;
  function element(type) {
    const handlers = {};
    return {
      mount(slot) {
        // Stripe's iframe fills its slot.
        const input = document.createElement('input');
        input.setAttribute('aria-label', type);
        input.style.cssText = 'display:block;box-sizing:border-box;width:100%;border:0;font:inherit';
        (typeof slot === 'string' ? document.querySelector(slot) : slot).appendChild(input);
      },
      on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return this; },
      off() { return this; },
      focus() {},
      destroy() {},
    };
  }
  window.Stripe = function Stripe() {
    return {
      _registerWrapper() {},
      registerAppInfo() {},
      elements() { return { create: element }; },
      paymentRequest() {
        return {
          canMakePayment: () => new Promise((resolve) => setTimeout(() => {
            window.__walletAnswers += 1;
            resolve(answer);
          }, ${answerMs})),
          on() {}, off() {},
          show() { window.__walletSheets += 1; },
        };
      },
      createPaymentMethod: () => Promise.resolve({ error: { message: 'Fake Stripe pays nothing' } }),
      confirmCardPayment: () => Promise.resolve({ error: { message: 'Fake Stripe pays nothing' } }),
    };
  };
  window.Stripe.version = ${JSON.stringify(RELEASE_TRAIN)};
})();`;
}

/** Serves the fake Stripe.js to every page of `context`. */
export async function serveFakeStripeJs(
  context: BrowserContext,
  wallets: { applePay: boolean; googlePay: boolean } | null,
  { answerMs = 0 }: { answerMs?: number } = {},
): Promise<void> {
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: fakeStripeJs(wallets, answerMs) }),
  );
}

/**
 * Once the page's Stripe.js has told it whether the browser has a wallet, and two frames later,
 * when the page has shown what it does with the answer: what a late answer could move has moved.
 */
export async function walletAnswered(page: Page): Promise<void> {
  await page.waitForFunction(
    () => ((window as unknown as { __walletAnswers?: number }).__walletAnswers ?? 0) > 0,
    undefined,
    { timeout: PATIENCE_MS },
  );
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
}
