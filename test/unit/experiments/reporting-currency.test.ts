import { describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../../shared/plans/currency';
import {
  REPORTING_RATES_DATE,
  reportedRevenue,
  USD_PER_UNIT,
} from '../../../worker/experiments/results/reporting-currency';

describe('revenue in the reporting currency', () => {
  it('has a rate for every currency the catalogue sells in', () => {
    expect(Object.keys(USD_PER_UNIT).sort()).toEqual([...CURRENCIES].sort());
    expect(USD_PER_UNIT.USD).toBe(1);
  });

  it('adds every currency up in US cents, yen by their own zero decimals', () => {
    expect(reportedRevenue({ USD: 699, GBP: 599, JPY: 980 })).toEqual({
      currency: 'USD',
      minor: Math.round((6.99 + 5.99 * USD_PER_UNIT.GBP + 980 * USD_PER_UNIT.JPY) * 100),
      ratesDate: REPORTING_RATES_DATE,
      unconverted: [],
    });
  });

  it('leaves out, and names, a currency without a rate', () => {
    expect(reportedRevenue({ USD: 100, NOK: 5000, XXX: 1 })).toMatchObject({
      minor: 100,
      unconverted: ['NOK', 'XXX'],
    });
    expect(reportedRevenue({}).minor).toBe(0);
  });
});
