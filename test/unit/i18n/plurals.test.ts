import { describe, expect, it } from 'vitest';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { shippedTranslator } from '../../../worker/i18n';

holdEveryLanguage();

/** SPEC.md §9: Russian day-count pluralisation for trial days ("a trial of {count} days"). */
describe('Russian day counts', () => {
  const t = shippedTranslator('ru');

  it.each([
    [1, '1 день'],
    [2, '2 дня'],
    [4, '4 дня'],
    [5, '5 дней'],
    [11, '11 дней'],
    [12, '12 дней'],
    [21, '21 день'],
    [22, '22 дня'],
    [25, '25 дней'],
    [101, '101 день'],
    [111, '111 дней'],
  ])('%i → %s', (count, text) => {
    expect(t('i18n.day_count', { count })).toBe(text);
  });

  it('writes the trial of 1, 3, 5 and 7 days of the plans (SPEC.md §1)', () => {
    expect(t('i18n.trial_days', { count: 1 })).toBe('Пробный период на 1 день');
    expect(t('i18n.trial_days', { count: 3 })).toBe('Пробный период на 3 дня');
    expect(t('i18n.trial_days', { count: 5 })).toBe('Пробный период на 5 дней');
    expect(t('i18n.trial_days', { count: 7 })).toBe('Пробный период на 7 дней');
  });
});

describe('other languages', () => {
  it('English has one and other', () => {
    const t = shippedTranslator('en');
    expect(t('i18n.trial_days', { count: 1 })).toBe('A trial of 1 day');
    expect(t('i18n.trial_days', { count: 7 })).toBe('A trial of 7 days');
  });

  it('Arabic has its six forms', () => {
    const t = shippedTranslator('ar');
    expect([0, 1, 2, 3, 11, 100].map((count) => t('i18n.day_count', { count }))).toEqual([
      '0 يوم',
      'يوم واحد',
      'يومان',
      '3 أيام',
      '11 يومًا',
      '100 يوم',
    ]);
  });

  it("French, Spanish and Portuguese use their own 'many' form for millions, not English", () => {
    expect(shippedTranslator('fr')('i18n.day_count', { count: 1_000_000 })).toBe(
      '1000000 de jours',
    );
    expect(shippedTranslator('es')('i18n.day_count', { count: 1_000_000 })).toBe('1000000 de días');
    expect(shippedTranslator('pt')('i18n.day_count', { count: 1_000_000 })).toBe('1000000 de dias');
  });

  it('German 7 days', () => {
    expect(shippedTranslator('de')('i18n.trial_days', { count: 7 })).toBe(
      'Eine Testphase von 7 Tagen',
    );
  });
});
