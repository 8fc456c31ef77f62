import { passesLuhn } from './card-check';

/**
 * What a log line must not carry, taken out of each value as the line is written (./log.ts), so
 * every line is covered whichever field, path or message brought a secret in. A line is read by
 * whoever reads the tail or the log store; what it keeps must open nothing:
 *
 * - a signature: the 43 base64url characters of an HMAC-SHA256 after a `.`, as every signed
 *   thing of the worker ends (a subscriber link `/subscription/<purpose>.<id>.<expiry>.<link
 *   id>.<signature>`, a resume link `/resume/<id>.<signature>`, a preview token, a signed
 *   cookie). The part before it stays, so a line still names the link (its link id, the resume
 *   record's id) and matches the other lines of that link; without its signature it is no link.
 * - a value named as a secret: a field, JSON field, query parameter or cookie whose name ends in
 *   token, secret, nonce, password, credential, session, authorization, cvc or cvv
 *   (`access_token`, `deeplink_token`, `payment_method_nonce`, `gf_session`, ...), and what
 *   follows `Bearer `;
 * - a Stripe-style client secret (`pi_…_secret_…`), whatever it is named;
 * - a JSON web token (a Google ID token);
 * - a card number: 13 to 19 digits, a space or a dash allowed between them, from 2 to 6 (the
 *   networks' first digits, never a millisecond timestamp's 1), that passes Luhn, standing alone
 *   (not inside a word, an id or a uuid).
 *
 * Each rule is one regex pass with no nested quantifier over the same characters (linear in
 * the text), run only on a value that has what it looks for (a `.`, a `=`, 13 digits, ...).
 */

const REDACTED = '[redacted]';
const CARD_REDACTED = '[card]';

const SECRET_NAME =
  '[A-Za-z_]*(?:token|secret|nonce|password|credential|session|authorization|cvc|cvv)';
const SECRET_KEY = new RegExp(`^${SECRET_NAME}$`, 'i');
const CARD_RUN = /(?<![\w-])[2-6](?:[ -]?\d){12,18}(?![\w-])/g;

const cardOrRun = (run: string) => (passesLuhn(run.replace(/[ -]/g, '')) ? CARD_REDACTED : run);

/** Whether `text` has 13 digits, as a card number needs: most values have not. */
function hasCardDigits(text: string): boolean {
  let digits = 0;
  for (let index = 0; index < text.length && digits < 13; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) digits += 1;
  }
  return digits >= 13;
}

interface Rule {
  /** A cheap look for what the rule needs, so most values skip its regex. */
  may: (text: string) => boolean;
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

const RULES: readonly Rule[] = [
  {
    may: (text) => text.length > 43 && text.includes('.'),
    pattern: /\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    replace: () => `.${REDACTED}`,
  },
  // A JSON text in a value (a product API's words): `"name":"value"`.
  {
    may: (text) => text.includes('"'),
    pattern: new RegExp(`("${SECRET_NAME}"\\s*:\\s*")[^"\\\\]+`, 'gi'),
    replace: (_, name) => `${name}${REDACTED}`,
  },
  // `name=value` of a query string, a form body or a Cookie header.
  {
    may: (text) => text.includes('='),
    pattern: new RegExp(`(\\b${SECRET_NAME}=)[^&;\\s"\\\\]+`, 'gi'),
    replace: (_, name) => `${name}${REDACTED}`,
  },
  {
    may: (text) => text.includes('earer'),
    pattern: /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
    replace: (_, bearer) => `${bearer}${REDACTED}`,
  },
  {
    may: (text) => text.includes('_secret_'),
    pattern: /(_secret_)[A-Za-z0-9_-]+/g,
    replace: (_, secret) => `${secret}${REDACTED}`,
  },
  {
    may: (text) => text.includes('eyJ'),
    pattern: /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g,
    replace: () => REDACTED,
  },
  { may: hasCardDigits, pattern: CARD_RUN, replace: cardOrRun },
];

/** `text` with every secret of the rules above replaced by its marker. */
export function redactText(text: string): string {
  let redacted = text;
  for (const { may, pattern, replace } of RULES) {
    if (may(redacted)) redacted = redacted.replace(pattern, replace);
  }
  return redacted;
}

/**
 * A `JSON.stringify` replacer that writes a value redacted: a secret-named field's whole value,
 * and the secrets in any other text or number (a card number sent as a number).
 */
export function redactValue(key: string, value: unknown): unknown {
  const scalar = typeof value === 'string' || typeof value === 'number';
  if (scalar && SECRET_KEY.test(key)) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (typeof value === 'number' && value >= 1e12) {
    const digits = String(value);
    return redactText(digits) === digits ? value : CARD_REDACTED;
  }
  return value;
}
