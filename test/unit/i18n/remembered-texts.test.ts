import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ALL_TRANSLATIONS } from '../../../locales/all';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { shippedTranslator, translatorWithOverride } from '../../../worker/i18n';

holdEveryLanguage();

/**
 * The worker's translators remember option-less answers (worker/i18n.ts): whatever they remember
 * must be what i18next itself says, in every language, for every key, however often asked.
 */
function plainI18next(language: string) {
  const instance = createInstance({
    resources: Object.fromEntries(
      Object.entries(ALL_TRANSLATIONS).map(([lng, translation]) => [lng, { translation }]),
    ),
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  void instance.init();
  return instance.getFixedT(language);
}

/** Every leaf key of a dictionary, dotted. */
function keysOf(dictionary: object, prefix = ''): string[] {
  return Object.entries(dictionary).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keysOf(value, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

describe('remembered texts', () => {
  const keys = keysOf(ALL_TRANSLATIONS.en ?? {}).map((key) => key.replace(/_(one|other)$/, ''));

  it('say what i18next says, asked once or twice, in every language', () => {
    for (const language of Object.keys(ALL_TRANSLATIONS)) {
      const remembered = shippedTranslator(language);
      const plain = plainI18next(language);
      for (const key of keys) {
        const expected = plain(key);
        expect(remembered(key), `${language} ${key}`).toEqual(expected);
        expect(remembered(key), `${language} ${key} again`).toEqual(expected);
      }
    }
  });

  it('are one translator per language, so a language never answers in another', () => {
    expect(shippedTranslator('de')).toBe(shippedTranslator('de'));
    expect(shippedTranslator('de')('continue')).not.toBe(shippedTranslator('en')('continue'));
  });

  it('still count and interpolate when asked with options', () => {
    const t = shippedTranslator('en');
    expect(t('i18n.trial_days', { count: 1 })).toBe('A trial of 1 day');
    expect(t('i18n.trial_days', { count: 7 })).toBe('A trial of 7 days');
    expect(t('i18n.trial_days', { count: 1 })).toBe('A trial of 1 day');
  });

  it('are kept apart for a dictionary overridden in KV', () => {
    const overridden = translatorWithOverride('en', { continue: 'Go on' });
    expect(overridden('continue')).toBe('Go on');
    expect(shippedTranslator('en')('continue')).not.toBe('Go on');
  });
});
