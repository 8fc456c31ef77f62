import { describe, expect, it } from 'vitest';
import { checkCopyDocument } from '../../../worker/translations/copy-document';

const TITLE = 'screens.one_pager.title';
const PRICE = 'plans.catalogue.monthly.disclaimer';

describe('the copy document: its schema, then the rules against the bundled files', () => {
  it('keeps languages and keys sorted, leaving out a language without a key', () => {
    const checked = checkCopyDocument({
      fr: { [TITLE]: 'b', [PRICE]: 'Chaque {{price}}' },
      de: { [TITLE]: 'a' },
      es: {},
    });
    expect(checked.ok).toBe(true);
    expect(JSON.stringify(checked.ok && checked.copy)).toBe(
      JSON.stringify({ de: { [TITLE]: 'a' }, fr: { [PRICE]: 'Chaque {{price}}', [TITLE]: 'b' } }),
    );
  });

  it('refuses a wrong shape at each field', () => {
    expect(checkCopyDocument([])).toEqual({
      ok: false,
      errors: [{ path: 'copy', message: 'must be an object' }],
    });
    expect(
      checkCopyDocument({ de: 'Hallo', fr: { [PRICE]: 5, [TITLE]: 'x'.repeat(4001) } }),
    ).toEqual({
      ok: false,
      errors: [
        { path: 'copy.de', message: 'must map keys to texts' },
        { path: `copy.fr.${PRICE}`, message: 'must be a text' },
        { path: `copy.fr.${TITLE}`, message: 'must be at most 4000 characters' },
      ],
    });
  });

  it('refuses a `__proto__` key, which a record would otherwise drop unseen', () => {
    for (const [raw, path] of [
      ['{"__proto__": {}}', 'copy.__proto__'],
      ['{"es": {"__proto__": "x"}}', 'copy.es.__proto__'],
    ] as const) {
      expect(checkCopyDocument(JSON.parse(raw))).toEqual({
        ok: false,
        errors: [{ path, message: 'is a reserved name' }],
      });
    }
  });

  it('refuses a language that does not ship, a key English lacks and a lost variable', () => {
    expect(
      checkCopyDocument({ it: { [TITLE]: 'Ciao' }, es: { [PRICE]: 'Cada mes', bogus: 'x' } }),
    ).toEqual({
      ok: false,
      errors: [
        { path: 'copy.es.bogus', message: 'no such key in the English files' },
        { path: `copy.es.${PRICE}`, message: 'lacks {{price}}' },
        { path: 'copy.it', message: 'is not a shipped language' },
      ],
    });
  });
});
