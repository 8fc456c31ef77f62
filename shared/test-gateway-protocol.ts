/**
 * The test gateway's browser protocol, in one place: the paths it serves and the messages its
 * same-origin pages exchange with the checkout page by `postMessage`. The test gateway
 * emulates a third-party card processor (Stripe's documented test cards) for development and
 * tests; a production worker answers 404 on every path below.
 *
 * Both sides check origins: a page posts only to its own origin (`targetOrigin` =
 * `location.origin`) and ignores a message whose `event.origin` is not its own origin or whose
 * `data.type` is not one of the types below.
 *
 * Card frame (`/test-gateway/card-frame`, in an iframe of the checkout):
 *   frame  → parent  {type:'tgw:ready'}                 once its fields are usable
 *   frame  → parent  {type:'tgw:resize', height}        whenever its content height changes (px)
 *   frame  → parent  {type:'tgw:edited'}                whenever the visitor edits a field
 *   frame  → parent  {type:'tgw:problems', problems}    what is wrong with each field, as typed
 *   parent → frame   {type:'tgw:labels', labels, messages, appearance}   translated field labels,
 *                    the message of each field problem, the page's colours (all optional)
 *   parent → frame   {type:'tgw:reveal'}                show every field's problem, focus the first
 *   parent → frame   {type:'tgw:focus'}                 focus the number field (another card)
 *   parent → frame   {type:'tgw:tokenize', name}        tokenize what the visitor typed
 *   frame  → parent  {type:'tgw:tokenized', id, brand, last4}   → `id` is the nonce, `tpm_…`
 *   frame  → parent  {type:'tgw:error', message, code}  invalid card data (code below)
 *
 * 3-D Secure challenge (`/test-gateway/challenge/{intentId}`, in an iframe or a popup):
 *   page   → parent/opener  {type:'tgw:authenticated', intentId, status:'succeeded'|'failed'}
 * after the visitor pressed 'Complete authentication' or 'Fail authentication'.
 */

import type { CardFieldProblems } from './card-field-problems';

export const TEST_GATEWAY_BASE = '/test-gateway';

/** JSON endpoints and pages; `{id}` parts are filled by the helpers below. */
export const TEST_GATEWAY_PATHS = {
  /** POST {number, exp_month, exp_year, cvc, name?} → 200 TokenizedCard | 402 GatewayErrorBody */
  paymentMethods: `${TEST_GATEWAY_BASE}/payment_methods`,
  /** GET the card fields page, put in an iframe by the checkout. */
  cardFrame: `${TEST_GATEWAY_BASE}/card-frame`,
  /** POST {nonce, amount} → 200 VerifyAnswer (Braintree-style 3-D Secure verification). */
  verify: `${TEST_GATEWAY_BASE}/verify`,
} as const;

/**
 * The card frame's height with no field message shown, in CSS pixels: 3 px around the form for
 * the focus ring, two rows of a 20 px label, 4 px, a 51 px field, 12 px apart. The checkout
 * reserves it before the frame loads, so nothing moves when it arrives.
 */
export const CARD_FRAME_HEIGHT = 3 + (20 + 4 + 51) + 12 + (20 + 4 + 51) + 3;

/** GET → 200 PaymentIntentState. */
export function paymentIntentPath(intentId: string): string {
  return `${TEST_GATEWAY_BASE}/payment_intents/${encodeURIComponent(intentId)}`;
}

/** POST {outcome:'complete'|'fail'} → 200 PaymentIntentState. */
export function authenticatePath(intentId: string): string {
  return `${paymentIntentPath(intentId)}/authenticate`;
}

/** GET the challenge page with 'Complete authentication' and 'Fail authentication'. */
export function challengePath(intentId: string): string {
  return `${TEST_GATEWAY_BASE}/challenge/${encodeURIComponent(intentId)}`;
}

/**
 * The intent id inside a payment intent secret `tpi_<id>_secret_<random>` (the
 * `payment_intent_secret` of a `requires_action` result), or null when it is not one.
 */
export function intentIdOfSecret(secret: string): string | null {
  const match = /^(tpi_[A-Za-z0-9-]+?)_secret_[A-Za-z0-9_-]+$/.exec(secret);
  return match?.[1] ?? null;
}

// --- JSON shapes ---------------------------------------------------------------------------

export interface TokenizedCard {
  id: string;
  brand: string;
  last4: string;
}

/** Why a card was refused at tokenization: shown to the visitor as `message` (SPEC.md §8). */
export type CardInputErrorCode =
  | 'incorrect_number'
  | 'invalid_expiry_month'
  | 'invalid_expiry_year'
  | 'invalid_cvc';

export interface GatewayErrorBody {
  error: { code: string; message: string };
}

/** Authentication state of a payment intent: `requires_action` until the challenge is done. */
export type IntentStatus = 'requires_action' | 'succeeded' | 'failed';

export interface PaymentIntentState {
  id: string;
  status: IntentStatus;
}

/**
 * POST /test-gateway/verify: `succeeded` at once for a card without 3-D Secure; else
 * `requires_action` with the challenge to open, after which the same nonce is verified.
 */
export type VerifyAnswer =
  | { status: 'succeeded'; nonce: string }
  | { status: 'requires_action'; nonce: string; intentId: string; challengeUrl: string };

// --- Messages ------------------------------------------------------------------------------

export interface CardFrameLabels {
  number: string;
  expiry: string;
  cvv: string;
}

/**
 * The page's look, as Stripe's Elements take an appearance: CSS colours and the font family,
 * each applied to the frame's own custom property of that name (`--ink`, `--brand`, ...).
 */
export type CardFrameAppearance = Partial<
  Record<'ink' | 'muted' | 'surface' | 'brand' | 'danger' | 'font', string>
>;

export type ParentToFrameMessage =
  | { type: 'tgw:tokenize'; name: string }
  | {
      type: 'tgw:labels';
      labels: CardFrameLabels;
      /** The text of each field problem, keyed `${field}_${problem}` ('expiry_past'). */
      messages?: Record<string, string>;
      appearance?: CardFrameAppearance;
    }
  | { type: 'tgw:reveal' }
  | { type: 'tgw:focus' };

export type FrameToParentMessage =
  | { type: 'tgw:ready' }
  | { type: 'tgw:resize'; height: number }
  | { type: 'tgw:edited' }
  | { type: 'tgw:problems'; problems: CardFieldProblems }
  | { type: 'tgw:tokenized'; id: string; brand: string; last4: string }
  | { type: 'tgw:error'; message: string; code: string };

export type ChallengeMessage = {
  type: 'tgw:authenticated';
  intentId: string;
  status: 'succeeded' | 'failed';
};

export type TestGatewayMessage = ParentToFrameMessage | FrameToParentMessage | ChallengeMessage;

const MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'tgw:tokenize',
  'tgw:labels',
  'tgw:ready',
  'tgw:resize',
  'tgw:edited',
  'tgw:problems',
  'tgw:reveal',
  'tgw:focus',
  'tgw:tokenized',
  'tgw:error',
  'tgw:authenticated',
]);

/**
 * The message of `event` when it comes from this page's own origin and is one of the protocol's,
 * else null. Every listener on either side goes through this check.
 */
export function testGatewayMessageOf(
  event: { origin: string; data: unknown },
  ownOrigin: string,
): TestGatewayMessage | null {
  if (event.origin !== ownOrigin) return null;
  const data = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && MESSAGE_TYPES.has(type) ? (data as TestGatewayMessage) : null;
}
