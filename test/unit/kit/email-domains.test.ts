import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMAIL_DOMAINS,
  EMAIL_DOMAINS_DEV,
  shortcutsFor,
  typedDomain,
  withDomain,
} from '../../../islands/kit/email-domains';

describe('email domain shortcuts (SPEC.md §5)', () => {
  it('offers gmail, yahoo and hotmail in production, and reserved domains elsewhere', () => {
    expect(EMAIL_DOMAINS).toEqual(['gmail.com', 'yahoo.com', 'hotmail.com']);
    expect(EMAIL_DOMAINS_DEV).toHaveLength(3);
    for (const domain of EMAIL_DOMAINS_DEV) expect(domain).toMatch(/^example\.(com|org|net)$/);
  });

  it('shows every shortcut while no domain is typed', () => {
    expect(shortcutsFor('', EMAIL_DOMAINS)).toEqual(EMAIL_DOMAINS);
    expect(shortcutsFor('anna', EMAIL_DOMAINS)).toEqual(EMAIL_DOMAINS);
    expect(shortcutsFor('anna@', EMAIL_DOMAINS)).toEqual(EMAIL_DOMAINS);
  });

  it('shows every shortcut while the typed domain matches none of them', () => {
    expect(shortcutsFor('anna@gm', EMAIL_DOMAINS)).toEqual(EMAIL_DOMAINS);
    expect(shortcutsFor('anna@outlook.com', EMAIL_DOMAINS)).toEqual(EMAIL_DOMAINS);
  });

  it('shows only the matching shortcut once the typed domain is one of them, in any case', () => {
    expect(shortcutsFor('anna@yahoo.com', EMAIL_DOMAINS)).toEqual(['yahoo.com']);
    expect(shortcutsFor('anna@GMail.Com', EMAIL_DOMAINS)).toEqual(['gmail.com']);
  });

  it('reads the domain after the first @', () => {
    expect(typedDomain('anna')).toBeNull();
    expect(typedDomain('anna@Mail.com ')).toBe('mail.com');
  });

  it.each([
    ['anna', 'anna@gmail.com'],
    ['anna@', 'anna@gmail.com'],
    ['anna@gm', 'anna@gmail.com'],
    ['anna@yahoo.com', 'anna@gmail.com'],
    [' anna@hotmail.com ', 'anna@gmail.com'],
  ])('replaces the domain part of %j', (typed, expected) => {
    expect(withDomain(typed, 'gmail.com')).toBe(expected);
  });

  it('leaves an empty field as it is', () => {
    expect(withDomain('', 'gmail.com')).toBe('');
    expect(withDomain('   ', 'gmail.com')).toBe('   ');
  });

  it('keeps the local part and ends with the chosen domain, whatever was typed', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.constantFrom(...EMAIL_DOMAINS), (typed, d) => {
        fc.pre(typed.trim() !== '');
        const result = withDomain(typed, d);
        const local = typed.trim().split('@')[0];
        expect(result).toBe(`${local}@${d}`);
      }),
    );
  });
});
