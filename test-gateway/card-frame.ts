import {
  type FrameToParentMessage,
  type GatewayErrorBody,
  TEST_GATEWAY_PATHS,
  type TokenizedCard,
  testGatewayMessageOf,
} from '../shared/test-gateway-protocol';

/**
 * The test gateway's card fields page (/test-gateway/card-frame), in an iframe of the checkout:
 * tokenizes what the visitor typed when the parent asks, and tells the parent its height. The
 * protocol is shared/test-gateway-protocol.ts's; messages go to and come from our origin only.
 */

const origin = location.origin;
const form = document.querySelector('form') as HTMLFormElement;
const field = (id: string) => document.getElementById(id) as HTMLInputElement;
const errorText = document.getElementById('card-error') as HTMLElement;

function tell(message: FrameToParentMessage): void {
  if (window.parent !== window) window.parent.postMessage(message, origin);
}

/** 'MM/YY' (or 'MM / YYYY') as month and year; zeros when unreadable, which the gateway refuses. */
function expiryOf(text: string): { exp_month: number; exp_year: number } {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(text);
  return match
    ? { exp_month: Number(match[1]), exp_year: Number(match[2]) }
    : { exp_month: 0, exp_year: 0 };
}

async function tokenize(name: string): Promise<FrameToParentMessage> {
  try {
    const response = await fetch(TEST_GATEWAY_PATHS.paymentMethods, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        number: field('card-number').value,
        ...expiryOf(field('card-expiry').value),
        cvc: field('card-cvc').value,
        name,
      }),
    });
    if (response.ok) {
      const card = (await response.json()) as TokenizedCard;
      return { type: 'tgw:tokenized', id: card.id, brand: card.brand, last4: card.last4 };
    }
    const { error } = (await response.json()) as GatewayErrorBody;
    return { type: 'tgw:error', message: error.message, code: error.code };
  } catch {
    return {
      type: 'tgw:error',
      message: 'The card could not be checked. Please try again.',
      code: 'network_error',
    };
  }
}

window.addEventListener('message', async (event) => {
  const message = event.source === window.parent ? testGatewayMessageOf(event, origin) : null;
  if (message?.type === 'tgw:labels') {
    const { labels } = message;
    for (const [id, text] of [
      ['number', labels.number],
      ['expiry', labels.expiry],
      ['cvc', labels.cvv],
    ]) {
      const label = document.querySelector(`label[for="card-${id}"]`);
      if (label && typeof text === 'string' && text) label.textContent = text;
    }
  } else if (message?.type === 'tgw:tokenize') {
    const answer = await tokenize(typeof message.name === 'string' ? message.name : '');
    errorText.textContent = answer.type === 'tgw:error' ? answer.message : '';
    tell(answer);
  }
});

// The parent keeps a payment error about the card until the visitor edits it.
form.addEventListener('input', () => tell({ type: 'tgw:edited' }));

// Enter in a field must not navigate the frame; the parent's Pay button submits.
form.addEventListener('submit', (event) => event.preventDefault());

new ResizeObserver(() => {
  tell({ type: 'tgw:resize', height: Math.ceil(document.documentElement.scrollHeight) });
}).observe(document.body);

tell({ type: 'tgw:ready' });
