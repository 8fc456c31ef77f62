import {
  authenticatePath,
  type ChallengeMessage,
  type PaymentIntentState,
} from '../shared/test-gateway-protocol';

/**
 * The test gateway's 3-D Secure challenge page (/test-gateway/challenge/{intentId}), like
 * Stripe's test authentication page: the visitor completes or fails it, and the page tells the
 * window that opened or framed it (shared/test-gateway-protocol.ts, our origin only).
 */

const intentId = document.body.dataset.intentId ?? '';
const buttons = [...document.querySelectorAll<HTMLButtonElement>('button[data-outcome]')];
const status = document.getElementById('challenge-status') as HTMLElement;

function tell(message: ChallengeMessage): void {
  const target = window.opener ?? (window.parent !== window ? window.parent : null);
  target?.postMessage(message, location.origin);
}

async function authenticate(outcome: string): Promise<void> {
  for (const button of buttons) button.disabled = true;
  status.textContent = 'Authenticating…';
  try {
    const response = await fetch(authenticatePath(intentId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome }),
    });
    if (!response.ok) throw new Error(`authenticate answered ${response.status}`);
    const intent = (await response.json()) as PaymentIntentState;
    const result = intent.status === 'succeeded' ? 'succeeded' : 'failed';
    status.textContent =
      result === 'succeeded' ? 'Authentication completed.' : 'Authentication failed.';
    tell({ type: 'tgw:authenticated', intentId, status: result });
  } catch {
    status.textContent = 'The authentication could not be sent. Please try again.';
    for (const button of buttons) button.disabled = false;
  }
}

// The page serves the buttons disabled: they answer only from now on.
for (const button of buttons) {
  button.addEventListener('click', () => authenticate(button.dataset.outcome ?? 'fail'));
  button.disabled = false;
}
