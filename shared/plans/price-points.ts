import type { Currency } from './currency';
import type { MinorUnits } from './money';

/**
 * The catalogue's price points: the amounts a plan family is sold at, named for what they price.
 * Every currency sets each one (the type says so), so no family is ever missing a price.
 */
export type PricePoint =
  | 'intro_3d'
  | 'intro_5d'
  | 'intro_7d'
  | 'monthly'
  | 'quarterly'
  | 'upsell_high'
  | 'upsell_mid'
  | 'upsell_low'
  | 'guide'
  | 'guide_bundle';

/**
 * Local price points in minor units of each currency (cents; yen have none: ¥980 is 980), set
 * the way a marketer prices an app store listing: a "charm" price of each market (£5.99,
 * R$ 34,90, ¥980, 69 kr), not a conversion at today's rate, so a price does not move with the
 * exchange rate and reads as a price of that country. USD and EUR are SPEC.md §3's figures.
 * Ordered like USD within a currency (a higher tier is dearer everywhere), which
 * test/unit/plans/catalogue.test.ts checks.
 */
export const PRICE_POINTS: Record<Currency, Record<PricePoint, MinorUnits>> = {
  USD: row(299, 499, 699, 3999, 5999, 999, 799, 599, 899, 1799),
  EUR: row(299, 499, 699, 3999, 5999, 999, 799, 599, 899, 1799),
  GBP: row(249, 399, 599, 3499, 4999, 899, 699, 499, 799, 1499),
  CAD: row(399, 649, 949, 5499, 7999, 1299, 1099, 799, 1199, 2399),
  AUD: row(449, 749, 1099, 5999, 8999, 1499, 1199, 899, 1399, 2799),
  BRL: row(1490, 2490, 3490, 19990, 29990, 4990, 3990, 2990, 4490, 8990),
  MXN: row(5900, 8900, 12900, 69900, 104900, 17900, 14900, 10900, 16900, 32900),
  INR: row(14900, 24900, 34900, 199900, 299900, 49900, 39900, 29900, 44900, 89900),
  JPY: row(480, 780, 980, 5800, 8800, 1500, 1200, 880, 1400, 2800),
  PLN: row(1299, 1999, 2999, 16999, 24999, 4499, 3499, 2499, 3999, 7999),
  TRY: row(9999, 17999, 24999, 139999, 199999, 34999, 27999, 19999, 29999, 59999),
  CHF: row(290, 490, 690, 3990, 5990, 990, 790, 590, 890, 1790),
  SEK: row(2900, 4900, 6900, 39900, 59900, 9900, 7900, 5900, 8900, 17900),
};

function row(
  intro3d: MinorUnits,
  intro5d: MinorUnits,
  intro7d: MinorUnits,
  monthly: MinorUnits,
  quarterly: MinorUnits,
  upsellHigh: MinorUnits,
  upsellMid: MinorUnits,
  upsellLow: MinorUnits,
  guide: MinorUnits,
  guideBundle: MinorUnits,
): Record<PricePoint, MinorUnits> {
  return {
    intro_3d: intro3d,
    intro_5d: intro5d,
    intro_7d: intro7d,
    monthly,
    quarterly,
    upsell_high: upsellHigh,
    upsell_mid: upsellMid,
    upsell_low: upsellLow,
    guide,
    guide_bundle: guideBundle,
  };
}
