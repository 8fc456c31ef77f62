import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Dictionary } from '../../../shared/config/translations';
import { overlayDictionary } from '../../../worker/translations/merge';

const BUNDLED: Dictionary = {
  continue: 'Continuar',
  landing: { title: 'Título', lead: 'Entradilla' },
};

it('lays nested and dotted keys over the bundled text, keeping what the override lacks', () => {
  expect(
    overlayDictionary(BUNDLED, { landing: { title: 'Nuevo' }, 'landing.cta': 'Localizar' }),
  ).toEqual({
    continue: 'Continuar',
    landing: { title: 'Nuevo', lead: 'Entradilla', cta: 'Localizar' },
  });
});

it('keeps the bundled shape where the override disagrees with it', () => {
  // A text where the bundled file has an area would blank every key of the area.
  expect(overlayDictionary(BUNDLED, { landing: 'oops', 'continue.more': 'x' })).toEqual(BUNDLED);
  expect(overlayDictionary(BUNDLED, { continue: { nested: 'x' } })).toEqual(BUNDLED);
});

it('never changes the bundled dictionary it was given', () => {
  const dictionary = fc.letrec<{ dict: Dictionary }>((tie) => ({
    dict: fc.dictionary(
      fc.constantFrom('a', 'b', 'c', 'a.b', 'b.c'),
      fc.oneof({ depthSize: 'small' }, fc.string({ minLength: 1 }), tie('dict')),
      { maxKeys: 4 },
    ) as fc.Arbitrary<Dictionary>,
  })).dict;
  fc.assert(
    fc.property(dictionary, dictionary, (bundled, override) => {
      const before = structuredClone(bundled);
      overlayDictionary(bundled, override);
      expect(bundled).toEqual(before);
    }),
  );
});
