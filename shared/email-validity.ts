/**
 * SPEC.md §5: the email field does not judge validity itself; the caller supplies it
 * (emailValidity). This is the check the caller passes in.
 *
 * It is the browser's own rule for `type=email` (WHATWG "valid email address") made stricter
 * where that rule lets through addresses no mail can reach: the domain needs a dot and an
 * alphabetic (or punycode) top-level label, so `name@gmail` is caught as a typo, and the local
 * part may not start, end or repeat a dot. Everything accepted here the browser accepts too, so
 * its built-in validation never blocks a value we call valid.
 */
const LOCAL_ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const TOP_LEVEL_LABEL = '(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})';

const EMAIL = new RegExp(
  `^${LOCAL_ATOM}(?:\\.${LOCAL_ATOM})*@(?:${DOMAIN_LABEL}\\.)+${TOP_LEVEL_LABEL}$`,
);

/** RFC 5321 limits: 64 characters before the @, 254 in all. */
const MAX_LOCAL_LENGTH = 64;
const MAX_LENGTH = 254;

/** Leading and trailing spaces are ignored, as the browser strips them from `type=email`. */
export function isValidEmail(value: string): boolean {
  const email = value.trim();
  if (email.length > MAX_LENGTH) return false;
  if (email.indexOf('@') > MAX_LOCAL_LENGTH) return false;
  return EMAIL.test(email);
}
