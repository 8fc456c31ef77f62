import { describe, expect, it } from 'vitest';
import {
  countText,
  dayText,
  liftText,
  moneyText,
  percentText,
  pValueText,
  verdictWord,
} from '../../../console/kit/result-texts';

describe('the results page’s numbers', () => {
  it('reads a rate in percent, with a second decimal below 1% so a rare purchase is not 0%', () => {
    expect(percentText(0.123)).toBe('12.3%');
    expect(percentText(0.5)).toBe('50%');
    expect(percentText(0.0004)).toBe('0.04%');
    expect(percentText(0)).toBe('0%');
    expect(percentText(1)).toBe('100%');
  });

  it('signs a lift, with a true minus sign, and gives its interval', () => {
    expect(percentText(0.123, true)).toBe('+12.3%');
    expect(percentText(-0.04, true)).toBe('−4%');
    expect(percentText(0, true)).toBe('0%');
    expect(liftText(0.123, { lower: -0.04, upper: 0.286 })).toBe('+12.3% (−4% to +28.6%)');
    expect(liftText(-0.25, { lower: -0.4, upper: -0.1 })).toBe('−25% (−40% to −10%)');
    // A variant without a conversion yet: the lift, and plainly no interval (not −100% to −100%).
    expect(liftText(-1, null)).toBe('−100% (no interval yet)');
    // No lift while the control has no conversion: a dash, not a made-up 0%.
    expect(liftText(null, null)).toBe('—');
    // A variant whose verdict waits for data: its relative lift is withheld, and says why.
    expect(liftText(null, null, 'not_enough_data')).toBe('not enough data yet');
    expect(liftText(null, null, 'withheld_srm')).toBe('—');
  });

  it('names every verdict; only better and worse sound like a decision', () => {
    expect(verdictWord('better')).toBe('better');
    expect(verdictWord('worse')).toBe('worse');
    expect(verdictWord('no_difference_yet')).toBe('no difference yet');
    expect(verdictWord('not_enough_data')).toBe('not enough data');
    expect(verdictWord('withheld_srm')).toBe('withheld (SRM)');
  });

  it('turns minor units into money with the currency’s own decimals', () => {
    expect(moneyText(1234.5, 'USD')).toBe('$12.35');
    expect(moneyText(2990, 'EUR')).toBe('€29.90');
    expect(moneyText(0, 'USD')).toBe('$0.00');
    // The yen has no minor unit: 500 is ¥500.
    expect(moneyText(500, 'JPY')).toBe('¥500');
    // A code Intl does not know still reads as an amount.
    expect(moneyText(1999, 'X1')).toBe('19.99 X1');
  });

  it('writes p-values without exponents, and counts with thousands separators', () => {
    expect(pValueText(0.53)).toBe('p = 0.53');
    expect(pValueText(0.042)).toBe('p = 0.042');
    expect(pValueText(0.00012)).toBe('p = 0.00012');
    expect(pValueText(3e-9)).toBe('p < 0.000001');
    expect(pValueText(1)).toBe('p = 1');
    expect(countText(12345)).toBe('12,345');
  });

  it('labels a results day (UTC) short, and leaves an unreadable one as it is', () => {
    expect(dayText('2026-11-22')).toBe('22 Nov');
    expect(dayText('yesterday')).toBe('yesterday');
  });
});
