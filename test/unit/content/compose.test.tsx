import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPOSED_SCREENS } from '../../../screens/composed';
import type { Arrangement } from '../../../screens/kit/arrangement';
import { renderWithIslands } from '../../../screens/layout/Island';
import { SCREENS } from '../../../screens/registry';
import type { ScreenProps } from '../../../screens/types';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { type ContentDocument, EMPTY_CONTENT, parseContent } from '../../../shared/config/content';
import { shownContent } from '../../../worker/content/screen-content';
import { shippedTranslator } from '../../../worker/i18n';

holdEveryLanguage();

/**
 * A screen drawn from its sections as a marketer's content arranges it, through the translator
 * the worker gives its page (worker/content/screen-content.ts): the same bytes as the screen in
 * code when nothing changes, the sections where the content puts them, its texts in each
 * language, escaped like every other text.
 */

/** The screens in code made of sections (a quiz's question is none). */
type ComposedId = Exclude<keyof typeof COMPOSED_SCREENS, 'question'>;
const COMPOSED = Object.keys(COMPOSED_SCREENS) as ComposedId[];

function content(raw: unknown): ContentDocument {
  const parsed = parseContent(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

async function render(
  screen: ComposedId,
  document: ContentDocument = EMPTY_CONTENT,
  language = 'en',
) {
  const shown = shownContent(document, screen, language, shippedTranslator(language));
  const props: ScreenProps = {
    screen,
    t: shown.t,
    arrangement: shown.arrangement,
    continueAction: `/${screen}?gclid=1`,
    next: '/searching?gclid=1',
    country: 'DE',
    language,
    theme: 'geozilla',
    brand: DEFAULT_BRANDS.geozilla,
    flow: 'default',
    visitorId: '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b',
    landingType: 'split_default',
    googleClientId: 'test-client.apps.googleusercontent.com',
  };
  const { Component } = SCREENS[screen];
  return (await renderWithIslands(<Component {...props} />)).html;
}

/** Where each landmark of a landing starts in its HTML. */
const at = (html: string, marker: string) => html.indexOf(marker);
const FORM = 'class="phone-section"';
const REVIEWS = 'What our users say';

const defaultArrangement = (screen: ComposedId): Arrangement =>
  (COMPOSED_SCREENS[screen]?.composition.sections ?? []).map(({ kind }) => ({
    id: kind,
    visible: true,
  }));

describe('with no content, or content that changes nothing', () => {
  it.each(COMPOSED)('%s renders byte for byte as the screen in code', async (screen) => {
    const inCode = await render(screen);
    expect(await render(screen, content({}))).toBe(inCode);
    expect(await render(screen, content({ screens: { [screen]: {} } }))).toBe(inCode);
    expect(
      await render(
        screen,
        content({ screens: { [screen]: { sections: defaultArrangement(screen) } } }),
      ),
    ).toBe(inCode);
  });

  it('hands on the request’s own translator, so pages stay cached per translator', () => {
    const t = shippedTranslator('en');
    expect(shownContent(EMPTY_CONTENT, 'one_pager', 'en', t)).toEqual({ arrangement: null, t });
    const changed = content({
      screens: { one_pager: { copy: { en: { 'screens.one_pager.title': 'A' } } } },
    });
    // Worked out once per content, screen, language and translator.
    expect(shownContent(changed, 'one_pager', 'en', t)).toBe(
      shownContent(changed, 'one_pager', 'en', t),
    );
    expect(shownContent(changed, 'one_pager', 'de', t).t).toBe(t);
  });
});

describe('a marketer’s arrangement', () => {
  it('moves the testimonials above the form, hides the guarantee and adds the questions', async () => {
    const before = await render('one_pager');
    expect(at(before, REVIEWS)).toBeGreaterThan(at(before, FORM));
    const ids = defaultArrangement('one_pager').map(({ id }) => id);
    const moved = [
      'hero',
      'reviews',
      ...ids.filter((id) => id !== 'hero' && id !== 'reviews'),
      'faq',
    ];
    const html = await render(
      'one_pager',
      content({
        screens: {
          one_pager: {
            sections: moved.map((id) => ({ id, visible: id !== 'guarantee' })),
          },
        },
      }),
    );
    expect(at(html, REVIEWS)).toBeGreaterThan(-1);
    expect(at(html, REVIEWS)).toBeLessThan(at(html, FORM));
    expect(html).not.toContain('class="guarantee');
    expect(html).toContain('Questions and answers');
    // Still one h1, the hero's, which the screen is named by.
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html).toContain('aria-labelledby="screen-title"');
  });

  it('keeps the AI landing’s panel around the sections of it that stay together', async () => {
    const inCode = await render('one_pager_ai');
    expect(inCode.match(/class="landing-ai-panel"/g)).toHaveLength(1);
    const ids = defaultArrangement('one_pager_ai').map(({ id }) => id);
    // The reviews between the hero and the form split the panel in two.
    const split = ['hero', 'reviews', ...ids.filter((id) => id !== 'hero' && id !== 'reviews')];
    const html = await render(
      'one_pager_ai',
      content({
        screens: { one_pager_ai: { sections: split.map((id) => ({ id, visible: true })) } },
      }),
    );
    expect(html.match(/class="landing-ai-panel"/g)).toHaveLength(2);
  });
});

describe('a marketer’s copy', () => {
  const headline = content({
    screens: {
      one_pager: {
        copy: {
          en: { 'screens.one_pager.title': 'Know your family is safe' },
          de: { 'screens.one_pager.title': 'Wissen, dass die Familie sicher ist' },
        },
      },
    },
  });

  it('replaces the headline in each language, on that screen only', async () => {
    expect(await render('one_pager', headline)).toContain('>Know your family is safe</h1>');
    expect(await render('one_pager', headline, 'de')).toContain(
      '>Wissen, dass die Familie sicher ist</h1>',
    );
    // Another landing keeps its own.
    expect(await render('one_pager_all', headline)).not.toContain('Know your family is safe');
  });

  it('fills placeholders and plural forms as the bundled copy does', () => {
    const t = shippedTranslator('ru');
    const texts = content({
      screens: {
        one_pager: {
          copy: {
            ru: {
              'kit.progress.step': 'Шаг {{step}} из {{steps}}!',
              'plans.receipt.every_months_one': '{{price}} ежемесячно',
              'plans.receipt.every_months_few': '{{price}} раз в {{count}} месяца',
            },
          },
        },
      },
    });
    const { t: own } = shownContent(texts, 'one_pager', 'ru', t);
    expect(own('kit.progress.step', { step: 2, steps: 5 })).toBe('Шаг 2 из 5!');
    expect(own('plans.receipt.every_months', { count: 1, price: '1 $' })).toBe('1 $ ежемесячно');
    expect(own('plans.receipt.every_months', { count: 3, price: '1 $' })).toBe(
      '1 $ раз в 3 месяца',
    );
    // A form the content leaves out is the bundled one.
    expect(own('plans.receipt.every_months', { count: 5, price: '1 $' })).toBe(
      t('plans.receipt.every_months', { count: 5, price: '1 $' }),
    );
  });

  it('is text: whatever it holds is escaped on output', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=1>', '{{x}}</h1>'),
        ),
        async (text) => {
          const html = await render(
            'one_pager',
            content({
              screens: { one_pager: { copy: { en: { 'screens.one_pager.lead': text } } } },
            }),
          );
          expect(html).not.toMatch(/<script|<img src=x/);
          expect(html.match(/<h1/g)).toHaveLength(1);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the screens past the landing', () => {
  const TESTIMONIALS = 'class="signup__testimonials"';

  it('moves signup_testim’s testimonials above the email form, in a marketer’s words', async () => {
    const before = await render('signup_testim');
    expect(at(before, TESTIMONIALS)).toBeGreaterThan(at(before, 'data-island="SignupForm"'));
    const order = defaultArrangement('signup_testim').map(({ id }) => id);
    const first = ['heading', 'testimonials'];
    const moved = [...first, ...order.filter((id) => !first.includes(id))];
    const html = await render(
      'signup_testim',
      content({
        screens: {
          signup_testim: {
            sections: moved.map((id) => ({ id, visible: id !== 'located' })),
            copy: { en: { 'signup.testimonials.1.text': 'It found my son in a minute <b>!</b>' } },
          },
        },
      }),
    );
    expect(at(html, TESTIMONIALS)).toBeLessThan(at(html, 'data-island="SignupForm"'));
    expect(html).not.toContain('data-island="LocatedBanner"');
    expect(html).toContain('It found my son in a minute &lt;b&gt;!&lt;/b&gt;</blockquote>');
    // The signup's own CSS has the testimonials' rules: no second copy in the page.
    expect(html).not.toContain('<style>');
  });

  it('adds the testimonials to a paywall above its plans, bringing their rules along', async () => {
    const order = defaultArrangement('paycheck1_pr5_h_win').map(({ id }) => id);
    const html = await render(
      'paycheck1_pr5_h_win',
      content({
        screens: {
          paycheck1_pr5_h_win: {
            sections: [
              ...order.slice(0, order.indexOf('plans')),
              'testimonials',
              ...order.slice(order.indexOf('plans')),
            ].map((id) => ({ id, visible: true })),
          },
        },
      }),
    );
    expect(at(html, TESTIMONIALS)).toBeGreaterThan(at(html, 'id="screen-title"'));
    expect(at(html, TESTIMONIALS)).toBeLessThan(at(html, 'data-island="PlanChoice"'));
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html).toContain('<style>.signup__testimonials{margin:0 0 24px}');
    expect(html.match(/<h1/g)).toHaveLength(1);
  });

  it('draws a checkout as the deployment offers it, whatever the content', async () => {
    const html = await render(
      'checkout_h3_pp_braintree',
      content({
        screens: {
          checkout_h3_pp_braintree: { sections: defaultArrangement('checkout_h3_pp_braintree') },
        },
      }),
    );
    // No PayPal here: the card's classes and lead, as in code.
    expect(html).toContain('class="screen checkout checkout--horizontal checkout--trial"');
    expect(html).toContain('<p class="lead">Pay securely by card.</p>');
  });
});

describe('any arrangement of any screen made of sections', () => {
  /** The whole keys a screen's catalogue names (`{screen}` filled), which content may re-word. */
  const wholeKeys = (screen: ComposedId) =>
    Object.values(COMPOSED_SCREENS[screen]?.catalogue ?? {})
      .flatMap((section) => section.copy)
      .filter((pattern) => !pattern.endsWith('.'))
      .map((pattern) => pattern.replace('{screen}', screen));

  it('renders without a crash, its texts escaped, with one heading at most', async () => {
    const arranged = fc.constantFrom(...COMPOSED).chain((screen) => {
      const ids = Object.keys(COMPOSED_SCREENS[screen]?.catalogue ?? {}).filter(
        // A shown picture needs one named (the validator refuses it without).
        (id) => id !== 'picture',
      );
      return fc.record({
        screen: fc.constant(screen),
        sections: fc
          .shuffledSubarray(ids, { minLength: 1 })
          .chain((shown) =>
            fc.tuple(
              ...shown.map((id) => fc.record({ id: fc.constant(id), visible: fc.boolean() })),
            ),
          ),
        key: fc.constantFrom(...wholeKeys(screen)),
        text: fc.oneof(
          fc.string(),
          fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=1>', '</style><b>'),
        ),
        language: fc.constantFrom('en', 'ar', 'ru'),
      });
    });
    await fc.assert(
      fc.asyncProperty(arranged, async ({ screen, sections, key, text, language }) => {
        const html = await render(
          screen,
          content({ screens: { [screen]: { sections, copy: { [language]: { [key]: text } } } } }),
          language,
        );
        expect(html).not.toMatch(/<script|<img src=x|<\/style><b>/);
        expect(html.match(/<h1/g)?.length ?? 0).toBeLessThanOrEqual(1);
      }),
      { numRuns: 150 },
    );
  });
});
