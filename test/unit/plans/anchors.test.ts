import { describe, expect, it } from 'vitest';
import {
  type AnchorTerms,
  chargedFirst,
  planFigures,
  realAnchor,
  savedPercent,
} from '../../../shared/plans/anchors';
import { PLAN_CATALOGUE, type Plan, planOf } from '../../../shared/plans/catalogue';
import { COUPONS } from '../../../shared/plans/coupons';
import { CURRENCIES } from '../../../shared/plans/currency';
import { orderSummary } from '../../../shared/plans/order-summary';
import { periodDays } from '../../../shared/plans/plan-figures';
import { PRICE_POINTS } from '../../../shared/plans/price-points';
import {
  endedOffer,
  SCREEN_OFFERS,
  type ScreenOffer,
  type SellingScreenId,
} from '../../../shared/plans/screen-offers';

const SCREENS = Object.keys(SCREEN_OFFERS) as SellingScreenId[];

/** Every way a screen may sell: countdown running or not, anchors on or off. */
function termsOf(offer: ScreenOffer): AnchorTerms[] {
  return [true, false].flatMap((offerEnds) =>
    [true, false].map((anchors) => ({
      offered: offer.families,
      coupon: offer.coupon,
      offerEnds,
      anchors,
    })),
  );
}

/**
 * What this visitor could otherwise pay, on the same screen, for what the plan's first payment
 * buys: the same plan once the offer ended (if it ends and the plan is still sold then), or
 * as many periods of another plan offered beside it as fill the same days.
 */
function realPrices(plan: Plan, offer: ScreenOffer, terms: AnchorTerms): number[] {
  const prices: number[] = [];
  const ended = endedOffer(offer);
  if (terms.offerEnds && ended.families.includes(plan.family)) {
    prices.push(chargedFirst(plan, ended.coupon));
  }
  const days = periodDays(plan);
  for (const family of offer.families) {
    const other = planOf(family, plan.currency);
    const otherDays = periodDays(other);
    if (days === null || otherDays === null || other.billing.kind !== 'recurring') continue;
    if (other.billing.intro || days % otherDays !== 0) continue;
    prices.push(chargedFirst(other, offer.coupon) * (days / otherDays));
  }
  return prices;
}

describe('struck prices are prices this visitor would otherwise pay', () => {
  it('holds for every catalogue plan, in every currency, on every selling screen', () => {
    let struck = 0;
    for (const screen of SCREENS) {
      for (const currency of CURRENCIES) {
        const offer = SCREEN_OFFERS[screen];
        for (const terms of termsOf(offer)) {
          for (const family of offer.families) {
            const plan = planOf(family, currency);
            const figures = planFigures(plan, terms);
            const where = `${screen} ${plan.id} ${JSON.stringify({ ...terms, offered: undefined })}`;
            expect(figures.charged, where).toBe(chargedFirst(plan, offer.coupon));
            if (figures.anchor === null) {
              expect(figures.savePercent, where).toBe(0);
              continue;
            }
            struck++;
            expect(terms.anchors, where).toBe(true);
            expect(realPrices(plan, offer, terms), where).toContain(figures.anchor);
            expect(figures.anchor, where).toBeGreaterThan(figures.charged);
            // Worked out from the amounts charged, never rounded up.
            const exact = (100 * (figures.anchor - figures.charged)) / figures.anchor;
            expect(figures.savePercent, where).toBeLessThanOrEqual(exact);
            expect(figures.savePercent, where).toBeGreaterThan(exact - 1);
          }
        }
      }
    }
    expect(struck).toBeGreaterThan(0);
  });

  it('strikes a trial from nothing: no one pays a regular price for 7 days', () => {
    for (const plan of PLAN_CATALOGUE.filter((entry) => entry.family.includes('_intro'))) {
      const terms = {
        offered: ['monthly', 'quarterly'],
        coupon: null,
        offerEnds: true,
        anchors: true,
      };
      expect(realAnchor(plan, terms as AnchorTerms), plan.id).toBeNull();
      expect(orderSummary(plan, terms as AnchorTerms).discount, plan.id).toBe(0);
    }
  });

  it('strikes the quarterly plan from three months of the monthly plan sold beside it', () => {
    const terms: AnchorTerms = {
      offered: SCREEN_OFFERS.checkout_v3_tr.families,
      coupon: null,
      offerEnds: true,
      anchors: true,
    };
    for (const currency of CURRENCIES) {
      // Three months of the monthly plan at the visitor's own price point, never a conversion.
      const { monthly, quarterly } = PRICE_POINTS[currency];
      const figures = planFigures(planOf('quarterly', currency), terms);
      expect(figures.anchor, currency).toBe(3 * monthly);
      expect(figures.savePercent, currency).toBe(
        Math.floor((100 * (3 * monthly - quarterly)) / (3 * monthly)),
      );
      expect(orderSummary(planOf('quarterly', currency), terms), currency).toEqual({
        regular: 3 * monthly,
        discount: 3 * monthly - quarterly,
        total: quarterly,
      });
    }
    // 59.98 saved of 119.97 is 49.996%: the page says 49, never more than is saved.
    expect(planFigures(planOf('quarterly', 'USD'), terms)).toMatchObject({
      anchor: 11997,
      savePercent: 49,
      anchorPerDay: 133,
      perDay: 67,
    });
    // £49.99 against 3 × £34.99 = £104.97; ¥8,800 against 3 × ¥5,800 = ¥17,400 (no minor unit).
    expect(planFigures(planOf('quarterly', 'GBP'), terms)).toMatchObject({
      anchor: 10497,
      savePercent: 52,
    });
    expect(planFigures(planOf('quarterly', 'JPY'), terms)).toMatchObject({
      anchor: 17400,
      savePercent: 49,
      anchorPerDay: 193,
      perDay: 98,
    });
    // Where the monthly plan is not sold beside it, there is nothing to compare with.
    expect(realAnchor(planOf('quarterly', 'USD'), { ...terms, offered: ['quarterly'] })).toBeNull();
  });

  it('strikes the upsell from its price without the 30% only while that price can be charged', () => {
    const offer = SCREEN_OFFERS.upsell_an_private;
    const running: AnchorTerms = {
      offered: offer.families,
      coupon: offer.coupon,
      offerEnds: true,
      anchors: true,
    };
    const monthly = planOf('upsell_monthly_999', 'USD');
    expect(planFigures(monthly, running)).toMatchObject({
      charged: 699,
      anchor: 999,
      savePercent: 30,
    });
    expect(orderSummary(monthly, running)).toEqual({ regular: 999, discount: 300, total: 699 });
    // The same 30% in yen, which have no minor unit: ¥1,500 less ¥450.
    expect(planFigures(planOf('upsell_monthly_999', 'JPY'), running)).toMatchObject({
      charged: 1050,
      anchor: 1500,
      savePercent: 30,
    });
    // A countdown turned off: the 30% off never ends, so 9.99 is a price nobody pays.
    const forever = { ...running, offerEnds: false };
    expect(planFigures(monthly, forever)).toMatchObject({
      charged: 699,
      anchor: null,
      savePercent: 0,
    });
    expect(orderSummary(monthly, forever).discount).toBe(0);
  });

  it('shows nothing struck and no saving with anchors off', () => {
    for (const screen of SCREENS) {
      const offer = SCREEN_OFFERS[screen];
      for (const family of offer.families) {
        const terms = {
          offered: offer.families,
          coupon: offer.coupon,
          offerEnds: true,
          anchors: false,
        };
        const plan = planOf(family, 'EUR');
        expect(planFigures(plan, terms)).toMatchObject({
          anchor: null,
          anchorPerDay: null,
          savePercent: 0,
        });
        expect(orderSummary(plan, terms).discount).toBe(0);
      }
    }
  });

  it('never has two plans of one screen show the same per-day figure with different savings', () => {
    for (const screen of SCREENS) {
      for (const currency of CURRENCIES) {
        const offer = SCREEN_OFFERS[screen];
        for (const terms of termsOf(offer)) {
          const bySaving = new Map<number, number>();
          for (const family of offer.families) {
            const figures = planFigures(planOf(family, currency), terms);
            if (figures.perDay === null) continue;
            const seen = bySaving.get(figures.perDay);
            if (seen !== undefined) expect(figures.savePercent, `${screen} ${family}`).toBe(seen);
            bySaving.set(figures.perDay, figures.savePercent);
          }
        }
      }
    }
  });

  it('rounds a saving down', () => {
    expect(savedPercent(11997, 5999)).toBe(49);
    expect(savedPercent(999, 699)).toBe(30);
    expect(savedPercent(699, 699)).toBe(0);
    expect(savedPercent(500, 699)).toBe(0);
  });

  it('sells each intro plan as the plan it renews into once the offer ended, without a coupon', () => {
    expect(endedOffer(SCREEN_OFFERS.paycheck1_pr5_h_win)).toMatchObject({
      families: ['monthly'],
      defaultFamily: 'monthly',
      coupon: null,
    });
    expect(endedOffer(SCREEN_OFFERS.checkout_v3_tr).families).toEqual(['monthly', 'quarterly']);
    expect(endedOffer(SCREEN_OFFERS.upsell_an_private)).toMatchObject({
      families: SCREEN_OFFERS.upsell_an_private.families,
      coupon: null,
    });
  });
});

describe('the first payment', () => {
  it('is the intro or period price less a coupon the plan accepts', () => {
    expect(chargedFirst(planOf('monthly_7d_intro', 'USD'), null)).toBe(699);
    expect(chargedFirst(planOf('upsell_quarterly_999', 'EUR'), COUPONS.upsell_30)).toBe(699);
    expect(chargedFirst(planOf('monthly', 'USD'), COUPONS.upsell_30)).toBe(3999);
  });
});
