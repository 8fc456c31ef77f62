import { describe, expect, it } from 'vitest';
import { parseConsentCountries } from '../../worker/attribution/consent';
import { parsedBinding } from '../../worker/kept';

describe('parsedBinding', () => {
  it('parses a binding once while its text stays the same, and again when it changes', () => {
    const texts: (string | undefined)[] = [];
    const parse = parsedBinding((text) => {
      texts.push(text);
      return { words: (text ?? '').split(',') };
    });
    const first = parse('a,b');
    expect(parse('a,b')).toBe(first);
    expect(texts).toEqual(['a,b']);
    expect(parse('c').words).toEqual(['c']);
    expect(parse(undefined).words).toEqual(['']);
    expect(parse(undefined).words).toEqual(['']);
    expect(texts).toEqual(['a,b', 'c', undefined]);
    // Back to the first text: parsed again, equal to the first answer.
    expect(parse('a,b')).toEqual(first);
  });

  it('freezes the shared answer, so one request cannot change the next one', () => {
    const parse = parsedBinding((text) => ({ text }));
    const answer = parse('x') as { text: string | undefined };
    expect(() => {
      answer.text = 'changed';
    }).toThrow(TypeError);
    expect(parse('x').text).toBe('x');
  });

  it('answers CONSENT_COUNTRIES as it reads, whatever was read before', () => {
    const germany = parseConsentCountries('DE');
    expect(parseConsentCountries('*')).toEqual({ everywhere: true });
    const again = parseConsentCountries('DE');
    expect(again).toEqual(germany);
    expect(again.everywhere === false && again.countries.has('DE')).toBe(true);
  });
});
