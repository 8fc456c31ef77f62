import {
  type CardFrameAppearance,
  type ChallengeMessage,
  challengePath,
  type FrameToParentMessage,
  intentIdOfSecret,
  type ParentToFrameMessage,
  TEST_GATEWAY_PATHS,
  testGatewayMessageOf,
  type VerifyAnswer,
} from '../../../shared/test-gateway-protocol';
import { type CardFieldsOptions, type CardProvider, ProviderError } from '../provider';

/** Accessible names of the gateway's frames, translated on the server. */
export interface TestGatewayCopy {
  /** The card fields' iframe ('Card details'). */
  cardFrameTitle: string;
  /** The 3-D Secure challenge's dialog and iframe ('Confirm your payment with your bank'). */
  challengeTitle: string;
}

/** Waits for the first protocol message from `source` that `accept` turns into a value. */
function nextMessage<T>(
  source: () => Window | null,
  accept: (message: FrameToParentMessage | ChallengeMessage) => T | undefined,
): { promise: Promise<T>; cancel: () => void } {
  let cancel = () => {};
  const promise = new Promise<T>((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== source()) return;
      const message = testGatewayMessageOf(event, window.location.origin);
      if (
        !message ||
        message.type === 'tgw:tokenize' ||
        message.type === 'tgw:labels' ||
        message.type === 'tgw:reveal' ||
        message.type === 'tgw:focus'
      )
        return;
      const value = accept(message);
      if (value === undefined) return;
      window.removeEventListener('message', onMessage);
      resolve(value);
    };
    window.addEventListener('message', onMessage);
    cancel = () => window.removeEventListener('message', onMessage);
  });
  return { promise, cancel };
}

/**
 * The 3-D Secure challenge (SPEC.md §4 Payment step 4) in a modal dialog over the checkout: the
 * gateway's page with its Complete and Fail buttons. Resolves how the visitor answered; closing
 * the dialog (Escape) counts as a failed challenge.
 */
function runChallenge(url: string, title: string): Promise<'succeeded' | 'failed'> {
  const dialog = document.createElement('dialog');
  dialog.className = 'tgw-challenge';
  dialog.setAttribute('aria-label', title);
  const frame = document.createElement('iframe');
  frame.title = title;
  frame.src = url;
  frame.className = 'tgw-challenge__frame';
  // appendChild: the worker types' Element (HTMLRewriter) shadows the DOM's append here.
  dialog.appendChild(frame);
  document.body.appendChild(dialog);
  dialog.showModal();
  const answer = nextMessage(
    () => frame.contentWindow,
    (message) => (message.type === 'tgw:authenticated' ? message.status : undefined),
  );
  const closed = new Promise<'failed'>((resolve) => {
    dialog.addEventListener('close', () => resolve('failed'), { once: true });
  });
  return Promise.race([answer.promise, closed]).finally(() => {
    answer.cancel();
    dialog.close();
    dialog.remove();
  });
}

/** The theme's colours and font around `container`, which the frame takes on as Elements do. */
function appearanceOf(container: HTMLElement): CardFrameAppearance {
  const style = getComputedStyle(container);
  const appearance: CardFrameAppearance = {};
  for (const name of ['ink', 'muted', 'surface', 'brand', 'font'] as const) {
    const value = style.getPropertyValue(`--${name}`).trim();
    if (value) appearance[name] = value;
  }
  return appearance;
}

/** A failed or abandoned challenge: no decline, so the checkout shows why and stays usable. */
const failedChallenge = () => ProviderError.of('payment_not_authenticated');

async function verify(nonce: string, amount: string): Promise<VerifyAnswer> {
  const response = await fetch(TEST_GATEWAY_PATHS.verify, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ nonce, amount }),
  });
  const body = (await response.json().catch(() => null)) as
    | VerifyAnswer
    | { error?: { code?: string; message?: string } }
    | null;
  if (!response.ok || !body || !('status' in body)) {
    const error = body && 'error' in body ? body.error : undefined;
    if (error?.message) throw new ProviderError(error.message, error.code ?? null);
    throw ProviderError.of('payment_error');
  }
  return body;
}

/**
 * The card fields' frame, listening to it: its height, the visitor's edits and what its checks
 * find go to `options`. `ready` resolves once its fields are usable; `stop` stops listening.
 */
function cardFrame(copy: TestGatewayCopy, options: CardFieldsOptions & { plays: string }) {
  const frame = document.createElement('iframe');
  frame.title = copy.cardFrameTitle;
  frame.className = 'card-frame';
  const query = new URLSearchParams({ lang: options.language, provider: options.plays });
  frame.src = `${TEST_GATEWAY_PATHS.cardFrame}?${query}`;
  const ready = nextMessage(
    () => frame.contentWindow,
    (message) => (message.type === 'tgw:ready' ? true : undefined),
  );
  const onFrameMessage = (event: MessageEvent) => {
    if (event.source !== frame.contentWindow) return;
    const message = testGatewayMessageOf(event, window.location.origin);
    if (message?.type === 'tgw:resize') frame.style.height = `${message.height}px`;
    if (message?.type === 'tgw:edited') options.onCardEdited?.();
    if (message?.type === 'tgw:problems') options.onProblems?.(message.problems);
  };
  window.addEventListener('message', onFrameMessage);
  const stop = () => {
    ready.cancel();
    window.removeEventListener('message', onFrameMessage);
  };
  return { frame, ready: ready.promise, stop };
}

/**
 * The embedded portal's test gateway as a CardProvider: its card fields live in a
 * same-origin iframe, so the checkout page never touches card numbers, just as with Stripe's and
 * Braintree's iframes. Behaves like Stripe's documented test cards (4242… succeeds, …0002
 * declines, …3184 asks for 3-D Secure). `plays`: the provider it stands in for, whose script
 * faults its frame takes (`npm run portal -- fail script-stripe`, portal/faults.ts).
 */
export function createTestGatewayProvider(
  copy: TestGatewayCopy,
  plays: 'stripe' | 'braintree' = 'stripe',
): CardProvider {
  let frame: HTMLIFrameElement | null = null;
  let stopListening = () => {};

  const post = (message: ParentToFrameMessage) =>
    frame?.contentWindow?.postMessage(message, window.location.origin);

  return {
    id: 'test',

    async mount(container, options) {
      const mounted = cardFrame(copy, { ...options, plays });
      frame = mounted.frame;
      stopListening = mounted.stop;
      container.replaceChildren(mounted.frame);
      await mounted.ready;
      const { labels, messages } = options;
      post({
        type: 'tgw:labels',
        labels: { number: labels.number, expiry: labels.expiry, cvv: labels.cvv },
        messages,
        appearance: appearanceOf(container),
      });
    },

    revealProblems() {
      post({ type: 'tgw:reveal' });
    },

    focusNumber() {
      post({ type: 'tgw:focus' });
    },

    unmount() {
      stopListening();
      frame?.remove();
      frame = null;
    },

    async createPaymentMethod({ cardholderName }) {
      const mounted = frame;
      if (!mounted) throw ProviderError.of('card_form_not_ready');
      const answer = nextMessage(
        () => mounted.contentWindow,
        (message) =>
          message.type === 'tgw:tokenized' || message.type === 'tgw:error' ? message : undefined,
      );
      post({ type: 'tgw:tokenize', name: cardholderName });
      const message = await answer.promise;
      if (message.type === 'tgw:error') throw new ProviderError(message.message, message.code);
      // The frame names the brand and last four only; the gateway's verify needs no BIN.
      return { nonce: message.id, bin: null };
    },

    async confirmCardPayment(intentSecret) {
      const intentId = intentIdOfSecret(intentSecret);
      if (!intentId) throw ProviderError.of('payment_error');
      const status = await runChallenge(challengePath(intentId), copy.challengeTitle);
      if (status !== 'succeeded') throw failedChallenge();
      return intentId;
    },

    async verifyCard({ nonce, amount }) {
      const answer = await verify(nonce, amount);
      if (answer.status === 'succeeded') return answer.nonce;
      const status = await runChallenge(answer.challengeUrl, copy.challengeTitle);
      if (status !== 'succeeded') throw failedChallenge();
      return answer.nonce;
    },
  };
}
