/**
 * The shapes of secrets the worker hands out, as a log line must never hold them: the tests'
 * check over every line a run prints (test/worker/secret-free-logs.ts for the worker projects,
 * `stop()` in test/browser/harness.ts for the built worker's). Written apart from the worker's
 * own redaction (shared/log-redaction.ts), from what the secrets look like when they are made,
 * so a rule missing there is found here.
 */

import { passesLuhn } from '../shared/card-check';

/** The test gateway's and providers' test cards (test/worker/test-gateway/gateway-client.ts). */
const TEST_CARDS = [
  '4242424242424242',
  '4000000000000002',
  '4000000000009995',
  '4000000000000069',
  '4000000000000127',
  '4000000000000119',
  '4100000000000019',
  '4000000000006975',
  '4000002760003184',
  '4000008400001629',
  '5555555555554444',
  '378282246310005',
];

/** A card number as a person types it: groups of four. */
const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');

const SHAPES: readonly { name: string; pattern: RegExp }[] = [
  // worker/subscriber-links/link-token.ts: <purpose>.<id>.<expiry>.<link id>[.<look>].<signature>
  {
    name: 'subscriber link token',
    pattern:
      /\b(?:manage|recover)\.[A-Za-z0-9_-]+\.\d+\.[0-9a-f]{32}(?:\.[a-z-]+~[A-Za-z0-9-]+)?\.[A-Za-z0-9_-]{43}/,
  },
  // worker/resume/resume-token.ts: <record id>.<signature>
  { name: 'resume link token', pattern: /\b[0-9a-f]{32}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/ },
  // portal/tokens.ts randomToken(): the session cookie's access token and the deeplink token,
  // 32 random bytes in base64url; at least one digit and one letter, as 256 random bits have.
  {
    name: 'access or deeplink token',
    pattern:
      /(?<![A-Za-z0-9_.-])(?=[A-Za-z_-]*\d)(?=[0-9_-]*[A-Za-z])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/,
  },
  { name: 'session cookie', pattern: /gf_session=(?!\[redacted\])[^;\s"\\]+/ },
  { name: 'bearer header', pattern: /Bearer\s+(?!\[redacted\])[A-Za-z0-9._~+/-]{8,}/ },
  // portal/test-gateway/payment-ids.ts and Stripe's: <intent id>_secret_<random>
  { name: 'payment intent secret', pattern: /_secret_(?!\[redacted\])[A-Za-z0-9_-]{6,}/ },
  { name: 'JSON web token', pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./ },
  { name: 'card security code', pattern: /"(?:cvc|cvv)"\s*:\s*"?\d{3,4}/i },
];

/** Runs of 13 to 19 digits, spaces or dashes between them allowed, that pass Luhn. */
function cardNumbersIn(line: string): string[] {
  const found = TEST_CARDS.filter((card) => line.includes(card) || line.includes(spaced(card)));
  for (const [run] of line.matchAll(/(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/g)) {
    const digits = run.replace(/[ -]/g, '');
    if (/^[2-6]/.test(digits) && passesLuhn(digits)) found.push(run);
  }
  return found;
}

/** What secret `line` holds, by the name of its shape; none for a clean line. */
export function secretsIn(line: string): string[] {
  const found = SHAPES.filter(({ pattern }) => pattern.test(line)).map(({ name }) => name);
  if (cardNumbersIn(line).length > 0) found.push('card number');
  return found;
}
