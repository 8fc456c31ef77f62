import {
  brandOf,
  cardProblems,
  cvvLengthOf,
  formatCardNumber,
  formatExpiry,
} from '../shared/card-check';
import {
  type CardFieldName,
  type CardFieldProblems,
  problemShown,
} from '../shared/card-field-problems';
import {
  type CardFrameAppearance,
  type CardFrameLabels,
  type FrameToParentMessage,
  type GatewayErrorBody,
  TEST_GATEWAY_PATHS,
  type TokenizedCard,
  testGatewayMessageOf,
} from '../shared/test-gateway-protocol';

/**
 * The test gateway's card fields page (/test-gateway/card-frame), in an iframe of the checkout,
 * behaving like Stripe's Elements: each field checked as typed (shared/card-check.ts) with its
 * own message under it (aria-describedby, aria-invalid), what is wrong reported to the parent,
 * tokenized when the parent asks, its height told to the parent. The protocol is
 * shared/test-gateway-protocol.ts's; messages go to and come from our origin only.
 */

const origin = location.origin;
const form = document.querySelector('form') as HTMLFormElement;
const INPUT_IDS: Record<CardFieldName, string> = {
  number: 'card-number',
  expiry: 'card-expiry',
  cvv: 'card-cvc',
};
const FIELDS: readonly CardFieldName[] = ['number', 'expiry', 'cvv'];
const input = (name: CardFieldName) => document.getElementById(INPUT_IDS[name]) as HTMLInputElement;
const brandBadge = document.getElementById('card-brand') as HTMLElement;

/** The text of each field problem, translated: the checkout sends them (tgw:labels). */
let messages: Record<string, string> = {};
const left = new Set<CardFieldName>();
let revealed = false;
let problems: CardFieldProblems = currentProblems();

const BRAND_BADGES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'MC',
  amex: 'Amex',
  discover: 'Disc',
};

function tell(message: FrameToParentMessage): void {
  if (window.parent !== window) window.parent.postMessage(message, origin);
}

function currentProblems(): CardFieldProblems {
  return cardProblems(
    { number: input('number').value, expiry: input('expiry').value, cvv: input('cvv').value },
    new Date(),
  );
}

/** Each field's message under it, or none; the input described by it and marked invalid. */
function showProblems(): void {
  for (const name of FIELDS) {
    const field = input(name);
    const note = document.getElementById(`${field.id}-error`) as HTMLElement;
    const problem = problems[name];
    const shown = problemShown(problem, { left: left.has(name), revealed });
    note.textContent = shown ? (messages[`${name}_${problem}`] ?? '') : '';
    note.hidden = !shown;
    if (shown) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', note.id);
    } else {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
  }
}

/** Formats what was typed as printed on the card, then checks every field again. */
function edited(target: EventTarget | null): void {
  const number = input('number');
  if (target === number) number.value = formatCardNumber(number.value);
  if (target === input('expiry')) input('expiry').value = formatExpiry(input('expiry').value);
  // American Express has a 4-digit CVV; every other network 3.
  input('cvv').maxLength = cvvLengthOf(number.value);
  input('cvv').value = input('cvv').value.replace(/\D/g, '');
  const brand = brandOf(number.value.replace(/\D/g, ''));
  brandBadge.textContent = number.value ? (BRAND_BADGES[brand] ?? '') : '';
  problems = currentProblems();
  showProblems();
  tell({ type: 'tgw:problems', problems });
}

/** Pay was pressed with a problem: every field says its own, the first takes focus. */
function reveal(): void {
  revealed = true;
  problems = currentProblems();
  showProblems();
  const first = FIELDS.find((name) => problems[name] !== null);
  if (first) input(first).focus();
}

/**
 * The checkout's labels and look. Only our own origin's parent gets here, and a custom
 * property's value set through the CSSOM stays one value of the properties that read it.
 */
function applyLabels(labels: CardFrameLabels, appearance?: CardFrameAppearance): void {
  for (const name of FIELDS) {
    const text: unknown = labels[name];
    const label = document.querySelector(`label[for="${INPUT_IDS[name]}"]`);
    if (label && typeof text === 'string' && text) label.textContent = text;
  }
  for (const [property, value] of Object.entries(appearance ?? {})) {
    if (typeof value === 'string' && value) {
      document.documentElement.style.setProperty(`--${property}`, value);
    }
  }
}

/** 'MM/YY' as month and year; zeros when unreadable, which the gateway refuses. */
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
        number: input('number').value,
        ...expiryOf(input('expiry').value),
        cvc: input('cvv').value,
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
    applyLabels(message.labels, message.appearance);
    if (message.messages) messages = { ...messages, ...message.messages };
    showProblems();
  } else if (message?.type === 'tgw:reveal') {
    reveal();
  } else if (message?.type === 'tgw:focus') {
    input('number').focus();
  } else if (message?.type === 'tgw:tokenize') {
    // The checkout shows a refusal of the gateway's own beside Pay: one place, not two.
    tell(await tokenize(typeof message.name === 'string' ? message.name : ''));
  }
});

form.addEventListener('input', (event) => {
  edited(event.target);
  // The parent keeps a payment error about the card until the visitor edits it.
  tell({ type: 'tgw:edited' });
});
form.addEventListener('focusout', (event) => {
  const name = FIELDS.find((each) => input(each) === event.target);
  if (!name) return;
  left.add(name);
  showProblems();
});

// Enter in a field must not navigate the frame; the parent's Pay button submits.
form.addEventListener('submit', (event) => event.preventDefault());

new ResizeObserver(() => {
  tell({ type: 'tgw:resize', height: Math.ceil(document.documentElement.scrollHeight) });
}).observe(document.body);

// The fields are in the frame's HTML before this script runs: what was typed meanwhile is
// formatted and checked now, as if just typed (a full run under load once left an Amex number
// unformatted, typed as the script arrived).
for (const name of FIELDS) if (input(name).value !== '') edited(input(name));

tell({ type: 'tgw:ready' });
tell({ type: 'tgw:problems', problems });
