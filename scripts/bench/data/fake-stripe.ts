/**
 * What the data benchmark's Chromium gets for https://js.stripe.com/v3 (a page.route answer):
 * the part of Stripe.js the card form and the wallet button call (islands/payments/providers/
 * stripe.ts, wallets.ts), answering as Stripe does for a card that pays without 3-D Secure. The
 * bench reaches no network; the islands, the worker and the tracker run as they do with Stripe.
 * Written as text: it runs in the page, not in Node.
 */
export const FAKE_STRIPE_JS = `(() => {
  let methods = 0;
  function element(type) {
    let input = null;
    return {
      mount(slot) {
        const target = typeof slot === 'string' ? document.querySelector(slot) : slot;
        input = document.createElement('input');
        input.setAttribute('data-fake-stripe', type);
        target.appendChild(input);
      },
      // The bench's visitor has a complete card in every field: Elements says so on 'change'.
      on(event, handler) {
        if (event === 'change') setTimeout(() => handler({ elementType: type, empty: false, complete: true }), 0);
      },
      off() {},
      focus() { input?.focus(); },
      destroy() { input?.remove(); },
    };
  }
  function Stripe(key) {
    return {
      elements() { return { create: (type) => element(type) }; },
      async createPaymentMethod() {
        methods += 1;
        return { paymentMethod: { id: 'pm_bench_' + Date.now().toString(36) + '_' + methods, card: {} } };
      },
      async confirmCardPayment() {
        return { paymentIntent: { id: 'pi_bench_' + Date.now().toString(36), status: 'succeeded' } };
      },
      paymentRequest() {
        return { canMakePayment: async () => null, on() {}, off() {}, show() {} };
      },
      _registerWrapper() {},
    };
  }
  Stripe.version = 3;
  window.Stripe = Stripe;
})();`;
