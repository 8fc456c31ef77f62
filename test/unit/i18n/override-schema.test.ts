import { describe, expect, it } from 'vitest';
import {
  DICTIONARY_MAX_BYTES,
  parseDictionary,
  parseManifest,
} from '../../../shared/config/translations';

describe('the translations manifest', () => {
  it('accepts a timestamp and the languages that have an override', () => {
    expect(parseManifest('{"timestamp": 1732260000, "languages": ["es", "pt-BR"]}')).toEqual({
      ok: true,
      value: { timestamp: 1732260000, languages: ['es', 'pt-BR'] },
    });
  });

  it.each([
    ['not json', 'not JSON'],
    ['{"timestamp": "soon", "languages": []}', 'timestamp'],
    ['{"timestamp": -1, "languages": []}', 'timestamp'],
    ['{"timestamp": 1.5, "languages": []}', 'timestamp'],
    ['{"timestamp": 1, "languages": ["Spanish"]}', 'languages.0'],
    ['{"timestamp": 1, "languages": ["es", "es"]}', 'twice'],
    ['{"timestamp": 1, "languages": [], "extra": true}', 'extra'],
    ['{"timestamp": 1}', 'languages'],
  ])('refuses %s', (raw, where) => {
    const result = parseManifest(raw);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toContain(where);
  });
});

describe('a language override', () => {
  it('accepts nested and dotted keys of texts', () => {
    const raw = '{"landing": {"title": "Hola"}, "screens.signup.title": "¡Listo!"}';
    expect(parseDictionary(raw)).toEqual({
      ok: true,
      value: { landing: { title: 'Hola' }, 'screens.signup.title': '¡Listo!' },
    });
  });

  it.each([
    ['[]', 'a list'],
    ['{"title": 5}', 'a number'],
    ['{"title": ["Hola"]}', 'a list value'],
    ['{"title": ""}', 'an empty text'],
    ['{"title": null}', 'null'],
    ['{"a.constructor": "x"}', 'a dotted key naming a prototype property'],
    ['{"bad key": "x"}', 'a key with a space'],
    ['{"a": {"b": {"c": {"d": {"e": {"f": {"g": "x"}}}}}}}', 'nesting deeper than six levels'],
  ])('refuses %s (%s)', (raw) => {
    expect(parseDictionary(raw).ok).toBe(false);
  });

  it('drops a "__proto__" key without reaching any prototype', () => {
    const result = parseDictionary('{"__proto__": {"title": "x"}, "ok": "y"}');
    expect(result).toEqual({ ok: true, value: { ok: 'y' } });
    expect(Object.getPrototypeOf(result.ok ? result.value : null)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });

  it('refuses a document over the size cap before parsing it', () => {
    const big = JSON.stringify({ title: 'x'.repeat(DICTIONARY_MAX_BYTES) });
    expect(parseDictionary(big)).toMatchObject({
      ok: false,
      error: `larger than ${DICTIONARY_MAX_BYTES} bytes`,
    });
  });
});
