import { describe, expect, it } from 'vitest';
import { draftDocument, editCount, findKeys, renderedParts } from '../../../console/copy/copy-text';
import type { CopyKey } from '../../../shared/console-api/copy';

/** The Copy area's pure parts: finding a text, the document a draft publishes, the preview. */

const KEYS: CopyKey[] = [
  {
    key: 'landing.phone.locate',
    area: 'landing',
    english: 'Locate',
    bundled: { en: 'Locate', es: 'Localizar' },
  },
  {
    key: 'screens.one_pager.title',
    area: 'common',
    english: 'Find out where your loved ones are',
    bundled: { en: 'Find out where your loved ones are', es: 'Descubre dónde están' },
  },
  {
    key: 'plans.catalogue.monthly.disclaimer',
    area: 'plans',
    english: '{{price}} every month. Cancel anytime.',
    bundled: { en: '{{price}} every month. Cancel anytime.', es: '{{price}} al mes.' },
  },
];

const bundled = (language: string, key: string) =>
  KEYS.find((k) => k.key === key)?.bundled[language];

describe('finding a text', () => {
  it('matches every word of the English, in any case and without accents, or the key', () => {
    expect(findKeys(KEYS, 'WHERE loved', {}).map((k) => k.key)).toEqual([
      'screens.one_pager.title',
    ]);
    expect(findKeys(KEYS, 'phone locate', {}).map((k) => k.key)).toEqual(['landing.phone.locate']);
    expect(findKeys(KEYS, '', {})).toHaveLength(3);
  });

  it('lists a match in another language, or in a live override, after the English ones', () => {
    expect(findKeys(KEYS, 'donde', {}).map((k) => k.key)).toEqual(['screens.one_pager.title']);
    const live = { es: { 'landing.phone.locate': 'Buscar ahora' } };
    expect(findKeys(KEYS, 'buscar', live).map((k) => k.key)).toEqual(['landing.phone.locate']);
  });
});

describe('the document a draft publishes', () => {
  it('lays the edits over the live overrides; an edit back to the bundled text removes one', () => {
    const live = { es: { 'landing.phone.locate': 'Buscar' }, de: { 'landing.phone.locate': 'X' } };
    const edits = {
      es: { 'landing.phone.locate': 'Localizar', 'screens.one_pager.title': '¡Hola!' },
      de: { 'landing.phone.locate': null },
    };
    expect(draftDocument(live, edits, bundled)).toEqual({
      es: { 'screens.one_pager.title': '¡Hola!' },
    });
    expect(editCount(live, edits, bundled)).toBe(3);
    expect(editCount(live, { es: { 'landing.phone.locate': 'Buscar' } }, bundled)).toBe(0);
  });
});

describe('a text as it shows', () => {
  it('fills each placeholder with an example and marks it', () => {
    expect(renderedParts('{{price}} al mes, {{ count }} días, {{other}}.')).toEqual([
      { text: '€9.99', placeholder: 'price' },
      { text: ' al mes, ' },
      { text: '3', placeholder: 'count' },
      { text: ' días, ' },
      { text: 'other', placeholder: 'other' },
      { text: '.' },
    ]);
  });
});
