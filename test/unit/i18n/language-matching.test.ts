import { describe, expect, it } from 'vitest';
import { resolveLanguage } from '../../../worker/funnel/locale';
import { directionOf, SUPPORTED_LANGUAGES } from '../../../worker/i18n';

/** SPEC.md §9 against the languages the worker really ships. */
function pageLanguage(acceptLanguage: string, customLng: string | null = null): string {
  return resolveLanguage({
    acceptLanguage,
    customLng,
    supported: SUPPORTED_LANGUAGES,
    customLngAllowed: customLng !== null,
  });
}

describe('the browser language picks a shipped language', () => {
  it.each([
    ['es', 'es'],
    ['de', 'de'],
    ['fr', 'fr'],
    ['pt', 'pt'],
    ['ru', 'ru'],
    ['ar', 'ar'],
    ['en', 'en'],
  ])('exact code %s → %s', (header, language) => {
    expect(pageLanguage(header)).toBe(language);
  });

  it.each([
    ['pt-BR', 'pt'],
    ['pt-PT', 'pt'],
    ['es-MX', 'es'],
    ['es-419', 'es'],
    ['de-CH', 'de'],
    ['fr-CA', 'fr'],
    ['ru-RU', 'ru'],
    ['ar-EG', 'ar'],
    ['ar-SA', 'ar'],
    ['en-GB', 'en'],
  ])('regional %s → %s by its language part', (header, language) => {
    expect(pageLanguage(header)).toBe(language);
  });

  it('takes the first preferred language that ships, past those that do not', () => {
    expect(pageLanguage('ja-JP, uk;q=0.9, ru;q=0.8, en;q=0.5')).toBe('ru');
    expect(pageLanguage('it, pt-BR;q=0.7')).toBe('pt');
  });

  it('falls back to English for languages that do not ship', () => {
    expect(pageLanguage('ja, zh-CN;q=0.8, it;q=0.5')).toBe('en');
    expect(pageLanguage('')).toBe('en');
  });

  it('custom_lng=pt-BR (outside production) picks Portuguese over the browser language', () => {
    expect(pageLanguage('de', 'pt-BR')).toBe('pt');
  });
});

describe('text direction', () => {
  it('is right-to-left for Arabic only among the shipped languages', () => {
    const rtl = SUPPORTED_LANGUAGES.filter((language) => directionOf(language) === 'rtl');
    expect(rtl).toEqual(['ar']);
  });

  it('is right-to-left for regional Arabic and the other right-to-left scripts', () => {
    for (const language of ['ar-EG', 'he', 'fa', 'ur']) expect(directionOf(language)).toBe('rtl');
    expect(directionOf('en-GB')).toBe('ltr');
  });
});
