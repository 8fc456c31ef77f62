/** SPEC.md §5: the domain shortcuts offered under the email field in production. */
export const EMAIL_DOMAINS: readonly string[] = ['gmail.com', 'yahoo.com', 'hotmail.com'];

/**
 * SPEC.md §5: outside production another set is offered. These are the RFC 2606 reserved
 * domains, so a tester's sign-up can never reach someone's real inbox.
 */
export const EMAIL_DOMAINS_DEV: readonly string[] = ['example.com', 'example.org', 'example.net'];

/** What follows the first `@`, lower-cased; null while the visitor has typed no `@`. */
export function typedDomain(value: string): string | null {
  const at = value.indexOf('@');
  return at === -1
    ? null
    : value
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/** SPEC.md §5: if the typed domain already matches a shortcut, only that one is shown. */
export function shortcutsFor(value: string, domains: readonly string[]): readonly string[] {
  const typed = typedDomain(value);
  const match = domains.find((domain) => domain.toLowerCase() === typed);
  return match ? [match] : domains;
}

/**
 * SPEC.md §5: a shortcut replaces the domain part of the typed value, and only when the field
 * is not empty (an empty field stays empty).
 */
export function withDomain(value: string, domain: string): string {
  const typed = value.trim();
  if (typed === '') return value;
  const at = typed.indexOf('@');
  const local = at === -1 ? typed : typed.slice(0, at);
  return `${local}@${domain}`;
}
