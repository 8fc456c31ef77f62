import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPOSED_SCREENS } from '../../../screens/composed';
import { LANDING_COMPOSITIONS } from '../../../screens/landing/section-specs';
import { parseContent } from '../../../shared/config/content';
import type { ScreenId } from '../../../shared/screens';
import { contentIssues } from '../../../worker/content/check';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../../fixtures/content';

/**
 * What a marketer's content may do to a screen, and every refusal at its path: the console puts
 * each beside its field, the CLI prints it.
 */

const check = (raw: unknown) => {
  const parsed = parseContent(raw);
  if (!parsed.ok) return parsed.issues ?? [];
  return contentIssues(parsed.value);
};

/** The classic landing's sections as code composes it. */
const LANDING_ORDER: string[] = LANDING_COMPOSITIONS.one_pager.sections.map(({ kind }) => kind);
const sections = (ids: string[], hidden: string[] = []) =>
  ids.map((id) => ({ id, visible: !hidden.includes(id) }));

const HEADLINE = HEADLINE_IN_EVERY_LANGUAGE;
const everyLanguage = (key: string, texts: Record<string, string>) =>
  Object.fromEntries(Object.entries(texts).map(([language, text]) => [language, { [key]: text }]));

describe('a content document that passes', () => {
  it('is empty, or moves, hides and adds optional sections, and says a headline in every language', () => {
    expect(check({})).toEqual([]);
    expect(check({ screens: {} })).toEqual([]);
    const testimonialsFirst = [
      'hero',
      'reviews',
      ...LANDING_ORDER.filter((id) => !['hero', 'reviews'].includes(id)),
    ];
    expect(
      check({
        screens: {
          one_pager: {
            sections: sections([...testimonialsFirst, 'faq'], ['guarantee']),
            copy: everyLanguage('screens.one_pager.title', HEADLINE),
          },
        },
      }),
    ).toEqual([]);
  });

  it('may change a translation alone, or an English alone', () => {
    expect(
      check({ screens: { one_pager: { copy: { de: { 'screens.one_pager.title': 'Neu' } } } } }),
    ).toEqual([]);
  });
});

describe('every refusal names its path', () => {
  it('a screen not made of sections', () => {
    expect(check({ screens: { 'checkout-test': { copy: {} } } })).toEqual([
      {
        path: 'content.screens.checkout-test',
        message: 'is not made of sections: only a screen made of sections takes content',
      },
    ]);
    expect(check({ screens: { nowhere: {} } })).toMatchObject([
      { path: 'screens.nowhere', message: expect.stringContaining('unknown screen id') },
    ]);
  });

  it('sections a landing has not, listed twice, or the ones it needs left out or hidden', () => {
    const issues = check({
      screens: {
        one_pager: {
          sections: [
            { id: 'hero', visible: true },
            { id: 'carousel', visible: true },
            { id: 'reviews', visible: true },
            { id: 'reviews', visible: false },
            { id: 'footer', visible: false },
          ],
        },
      },
    });
    expect(issues).toEqual([
      {
        path: 'content.screens.one_pager.sections.1.id',
        message: expect.stringMatching(/^is no section of a landing \(hero, phone_form, .*\)$/),
      },
      {
        path: 'content.screens.one_pager.sections.3.id',
        message: 'lists "reviews" a second time',
      },
      {
        path: 'content.screens.one_pager.sections.4.visible',
        message: 'must be true: a landing needs its "footer"',
      },
      {
        path: 'content.screens.one_pager.sections',
        message: 'must include "phone_form": a landing needs it',
      },
    ]);
  });

  it('texts: an unknown key, one no shown section reads, a lost or unknown placeholder, markup, length', () => {
    const at = 'content.screens.one_pager.copy';
    const issues = check({
      screens: {
        one_pager: {
          // The FAQ is hidden: its texts would never show.
          sections: sections([...LANDING_ORDER, 'faq'], ['faq']),
          copy: {
            de: {
              'landing.nothing': 'x',
              'landing.faq.title': 'Fragen',
              'kit.progress.step': 'Schritt {{step}}',
              'landing.guarantee.title': 'Garantie {{price}}',
              'landing.claims.users': '<b>SSL</b>',
              'landing.claims.accuracy': 'x'.repeat(61),
              'screens.one_pager.lead': ' ',
            },
            xx: { 'screens.one_pager.title': 'x' },
          },
        },
      },
    });
    expect(issues).toEqual([
      { path: `${at}.de.landing.nothing`, message: 'no such key in the English files' },
      { path: `${at}.de.landing.faq.title`, message: 'is read by no section this screen shows' },
      { path: `${at}.de.kit.progress.step`, message: 'lacks {{steps}}' },
      { path: `${at}.de.landing.guarantee.title`, message: 'unknown {{price}}' },
      {
        path: `${at}.de.landing.claims.users`,
        message: 'must be text: markup is shown as written',
      },
      {
        path: `${at}.de.landing.claims.accuracy`,
        message: 'must be at most 60 characters in this section',
      },
      { path: `${at}.de.screens.one_pager.lead`, message: 'must not be empty' },
      { path: `${at}.xx`, message: 'is not a shipped language' },
    ]);
  });

  it('a changed English publishes alone: the other languages are not asked for', () => {
    const { ru: _ru, ar: _ar, ...fiveLanguages } = HEADLINE;
    expect(
      check({
        screens: { one_pager: { copy: everyLanguage('screens.one_pager.title', fiveLanguages) } },
      }),
    ).toEqual([]);
    expect(
      check({
        screens: {
          one_pager: {
            copy: { en: { 'screens.one_pager.title': 'New' } },
            variants: { b: { copy: { en: { 'screens.one_pager.title': 'Newer' } } } },
          },
        },
      }),
    ).toEqual([]);
  });

  it('HTML as a text is refused whatever its shape, and the shape of the document by zod', () => {
    expect(check({ screens: { one_pager: { sections: [] } } })).toMatchObject([
      { path: 'screens.one_pager.sections', message: 'must list at least one section' },
    ]);
    expect(check({ screens: { one_pager: { copy: { en: { 'Bad Key': 'x' } } } } })).toMatchObject([
      { path: expect.stringContaining('screens.one_pager.copy.en'), message: expect.any(String) },
    ]);
    expect(check({ screens: {}, extra: 1 })).toMatchObject([{ path: '' }]);
  });
});

describe('a rating for the reviews (the marketer’s figures, never code’s)', () => {
  const rated = (rating: unknown, screen = 'one_pager') =>
    check({ screens: { [screen]: { rating } } });

  it('passes with a value, a count or both, and the source they come from', () => {
    expect(rated({ value: 4.6, count: 12400, source: 'App Store' })).toEqual([]);
    expect(rated({ value: 5, source: 'Google Play' })).toEqual([]);
    expect(rated({ count: 1, source: 'Trustpilot' })).toEqual([]);
  });

  it('refuses a value outside 1 to 5, or finer than one decimal', () => {
    for (const value of [0.9, 5.1, -4, 46]) {
      expect(rated({ value, source: 'App Store' })).toEqual([
        { path: 'screens.one_pager.rating.value', message: 'must be between 1 and 5' },
      ]);
    }
    expect(rated({ value: 4.65, source: 'App Store' })).toEqual([
      {
        path: 'screens.one_pager.rating.value',
        message: 'must have at most one decimal, such as 4.6',
      },
    ]);
    expect(rated({ value: '4.6', source: 'App Store' })).toEqual([
      { path: 'screens.one_pager.rating.value', message: 'must be a number such as 4.6' },
    ]);
  });

  it('refuses a count that is not a whole number', () => {
    const whole = 'must be a whole number such as 12400, without separators';
    for (const count of ['12,400', 12.5, Number.NaN]) {
      expect(rated({ count, source: 'App Store' })).toEqual([
        { path: 'screens.one_pager.rating.count', message: whole },
      ]);
    }
    expect(rated({ count: 0, source: 'App Store' })).toEqual([
      { path: 'screens.one_pager.rating.count', message: 'must be at least 1' },
    ]);
  });

  it('refuses a figure without its source, and a source without a figure', () => {
    const source = 'must name where the rating comes from, such as "App Store"';
    expect(rated({ value: 4.6 })).toEqual([
      { path: 'screens.one_pager.rating.source', message: source },
    ]);
    expect(rated({ count: 12400, source: '  ' })).toEqual([
      { path: 'screens.one_pager.rating.source', message: source },
    ]);
    expect(rated({ source: 'App Store' })).toEqual([
      { path: 'screens.one_pager.rating', message: 'must give a value, a count or both' },
    ]);
    expect(rated({ value: 4.6, source: 'App Store', stars: 5 })).toHaveLength(1);
  });

  it('refuses markup or a bidirectional control as its source, and a rating on a screen with no reviews section', () => {
    expect(rated({ value: 4.6, source: '<b>App Store</b>' })).toEqual([
      {
        path: 'content.screens.one_pager.rating.source',
        message: 'must be text: markup is shown as written',
      },
    ]);
    expect(rated({ value: 4.6, source: 'App \u202eerotS' })).toEqual([
      {
        path: 'content.screens.one_pager.rating.source',
        message:
          'must not hold the bidirectional control character U+202E: it reorders what the visitor reads',
      },
    ]);
    expect(rated({ value: 4.6, source: 'App Store' }, 'signup_testim')).toEqual([
      {
        path: 'content.screens.signup_testim.rating',
        message: 'is shown only by a "reviews" section, which a signup has not',
      },
    ]);
  });
});

describe('a content variant', () => {
  const withVariant = (variant: unknown, base: unknown = {}) =>
    check({ screens: { one_pager: { ...(base as object), variants: { b: variant } } } });

  it('is held to the screen’s rules, each refusal at its own fields', () => {
    const at = 'content.screens.one_pager.variants.b';
    expect(
      withVariant({
        sections: sections(['hero', 'reviews', 'footer']),
        copy: { de: { 'landing.faq.title': 'Fragen' } },
      }),
    ).toEqual([
      { path: `${at}.sections`, message: 'must include "phone_form": a landing needs it' },
      {
        path: `${at}.copy.de.landing.faq.title`,
        message: 'is read by no section this screen shows',
      },
    ]);
  });

  it('may change its English alone: the languages it lacks are not refused', () => {
    const { en } = HEADLINE;
    // What the other languages' visitors then see is worker/content/languages.ts's to say
    // (test/unit/content/languages.test.ts): no test of this variant for them.
    expect(withVariant({ copy: { en: { 'screens.one_pager.title': en } } })).toEqual([]);
  });
});

describe('a save offer variant', () => {
  const withOffer = (variant: unknown) =>
    check({
      screens: {},
      saveOffer: {
        title: { en: 'Stay with us' },
        text: { en: 'A free month on us.' },
        variants: { half_price: variant },
      },
    });
  const refusal = [
    {
      path: 'content.saveOffer.variants.half_price',
      message:
        'must word its title or its text in at least one language, or do its own action: as it is, it shows the offer as written',
    },
  ];

  it('words its title or its text in some language, or does its own action', () => {
    expect(withOffer({ title: { en: 'Stay for half price' } })).toEqual([]);
    expect(withOffer({ text: { de: 'Bleib zum halben Preis.' } })).toEqual([]);
    expect(withOffer({ action: { kind: 'discount', percentOff: 50, renewals: 1 } })).toEqual([]);
    expect(withOffer({ action: null })).toEqual([]);
  });

  it('is refused when it does neither: a test of it would compare the offer with itself', () => {
    expect(withOffer({})).toEqual(refusal);
    expect(withOffer({ title: {}, text: {} })).toEqual(refusal);
  });

  it('switches only to a plan that renews', () => {
    expect(withOffer({ action: { kind: 'switch', family: 'guide_899' } })).toEqual([
      {
        path: 'content.saveOffer.variants.half_price.action.family',
        message: '"guide_899" is a one-time payment: a switch moves to a cheaper plan that renews',
      },
    ]);
    expect(withOffer({ action: { kind: 'switch', family: 'upsell_monthly_599' } })).toEqual([]);
  });
});

describe('the save offer’s words', () => {
  const withWords = (offer: Record<string, unknown>) =>
    check({
      screens: {},
      saveOffer: { title: { en: 'Stay with us' }, text: { en: 'A free month on us.' }, ...offer },
    });

  it('state no price by hand: the terms a subscriber gets come from the product API', () => {
    expect(withWords({ text: { en: 'Stay for half price: 50% off your next renewal.' } })).toEqual(
      [],
    );
    expect(withWords({ title: { en: 'Stay for $4.99 a month' } })).toEqual([
      {
        path: 'content.saveOffer.title.en',
        message: expect.stringMatching(/^must not state a price by hand \("\$4\.99"\)/),
      },
    ]);
    expect(
      withWords({ variants: { cheaper: { text: { de: 'Bleiben Sie für 3,99 € im Monat.' } } } }),
    ).toEqual([
      {
        path: 'content.saveOffer.variants.cheaper.text.de',
        message: expect.stringContaining('("3,99 €")'),
      },
    ]);
  });

  it('hold no bidirectional control and no markup, reasons included', () => {
    expect(
      withWords({
        text: { en: 'Keep \u202ehtnom eerf' },
        reasons: { too_expensive: { en: '<b>Too</b> expensive' } },
      }),
    ).toEqual([
      {
        path: 'content.saveOffer.text.en',
        message:
          'must not hold the bidirectional control character U+202E: it reorders what the visitor reads',
      },
      {
        path: 'content.saveOffer.reasons.too_expensive.en',
        message: 'must be text: markup is shown as written',
      },
    ]);
  });
});

describe('the reasons for leaving', () => {
  const withReasons = (reasons: unknown) =>
    check({
      screens: {},
      saveOffer: {
        title: { en: 'Stay with us', de: 'Bleiben Sie' },
        text: { en: 'A free month on us.', de: 'Ein Gratismonat.' },
        reasons,
      },
    });

  it('are written in every language the offer is', () => {
    const both = { too_expensive: { en: 'It costs too much', de: 'Zu teuer' } };
    expect(withReasons(both)).toEqual([]);
    expect(withReasons({ too_expensive: { en: 'It costs too much' } })).toEqual([
      {
        path: 'content.saveOffer.reasons.too_expensive',
        message:
          'must be written in de as the offer is: without it no reason is asked in that language',
      },
    ]);
  });

  it('are at most 8, each under a key', () => {
    const nine = Object.fromEntries(
      Array.from({ length: 9 }, (_, i) => [`reason_${i}`, { en: 'x', de: 'x' }]),
    );
    expect(withReasons(nine).map((issue) => issue.path)).toEqual(['saveOffer.reasons']);
    expect(withReasons({ 'Too Expensive': { en: 'x', de: 'x' } })[0]?.message).toContain(
      'must be a reason key',
    );
  });
});

describe('any document', () => {
  it('is answered with issues or none, never a crash', () => {
    const id = fc.constantFrom(...LANDING_ORDER, 'faq', 'stats', 'story', 'nope', '__proto__', '');
    const text = fc.oneof(fc.string(), fc.constant('<script>x</script>'), fc.constant('{{price}}'));
    const key = fc.constantFrom(
      'screens.one_pager.title',
      'landing.faq.title',
      'landing.reviews.emily.text',
      'kit.support.contact',
      'nope',
      'constructor',
    );
    const screen = fc.record(
      {
        sections: fc.array(fc.record({ id, visible: fc.boolean() }), { maxLength: 14 }),
        copy: fc.dictionary(fc.constantFrom('en', 'de', 'ar', 'zz'), fc.dictionary(key, text)),
      },
      { requiredKeys: [] },
    );
    const document = fc.record({
      screens: fc.dictionary(fc.constantFrom('one_pager', 'one_pager_ai', 'signup', 'x'), screen),
    });
    fc.assert(
      fc.property(fc.oneof(document, fc.anything()), (raw) => {
        const issues = check(raw);
        expect(Array.isArray(issues)).toBe(true);
        for (const issue of issues) expect(typeof issue.path).toBe('string');
      }),
      { numRuns: 300 },
    );
  });
});

describe('the sections every slot needs', () => {
  const inCode = (screen: ScreenId) =>
    (COMPOSED_SCREENS[screen]?.composition.sections ?? []).map(({ kind }) => kind);

  it.each([
    ['signup', 'email_form', 'a signup'],
    ['signup_testim', 'google', 'a signup'],
    ['checkout_h3_pp_braintree', 'plans', 'a paywall'],
    ['paycheck1_pr5_h_ai', 'payment', 'a paywall'],
    ['paycheck_combo_3d', 'support', 'a paywall'],
    ['upsell_an_private', 'choice', 'an upsell'],
    ['success', 'qr', 'an end screen'],
    ['success', 'order_summary', 'an end screen'],
  ] as const)('%s refuses its %s hidden or left out, at the path', (screen, id, named) => {
    const order = inCode(screen);
    expect(check({ screens: { [screen]: { sections: sections(order, [id]) } } })).toEqual([
      {
        path: `content.screens.${screen}.sections.${order.indexOf(id)}.visible`,
        message: `must be true: ${named} needs its "${id}"`,
      },
    ]);
    const without = order.filter((kind) => kind !== id);
    expect(check({ screens: { [screen]: { sections: sections(without) } } })).toEqual([
      {
        path: `content.screens.${screen}.sections`,
        message: `must include "${id}": ${named} needs it`,
      },
    ]);
  });

  it('lets a marketer hide, move and add what a slot does not need', () => {
    const checkout = inCode('checkout_v3_tr').filter((id) => id !== 'guarantee');
    const proofFirst = ['testimonials', 'guarantee', ...checkout];
    expect(
      check({ screens: { checkout_v3_tr: { sections: sections(proofFirst, ['countdown']) } } }),
    ).toEqual([]);
    expect(
      check({ screens: { signup: { sections: sections([...inCode('signup'), 'testimonials']) } } }),
    ).toEqual([]);
    expect(
      check({ screens: { success: { sections: sections(inCode('success'), ['app_screens']) } } }),
    ).toEqual([]);
  });

  it('refuses a section of another slot, and copy no section of the screen reads', () => {
    expect(
      check({
        screens: { upsell_guide: { sections: sections(['hero', ...inCode('upsell_guide')]) } },
      }),
    ).toMatchObject([
      {
        path: 'content.screens.upsell_guide.sections.0.id',
        message: expect.stringContaining('is no section of an upsell'),
      },
    ]);
    expect(
      check({ screens: { signup: { copy: { de: { 'signup.title_testim': 'Neu' } } } } }),
    ).toEqual([
      {
        path: 'content.screens.signup.copy.de.signup.title_testim',
        message: 'is read by no section this screen shows',
      },
    ]);
    // The receipt's wording stays the bundled copy's: only its title is a marketer's.
    expect(
      check({ screens: { success: { copy: { de: { 'plans.receipt.renews': 'Neu' } } } } }),
    ).toMatchObject([{ path: 'content.screens.success.copy.de.plans.receipt.renews' }]);
  });
});
