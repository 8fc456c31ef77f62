import { describe, expect, it } from 'vitest';
import { parseContent } from '../../../shared/config/content';
import {
  bidiProblem,
  copyRuleProblems,
  handTypedPriceProblem,
  sellingCopyKey,
  typedPercentProblem,
} from '../../../shared/copy-rules';
import { contentIssues } from '../../../worker/content/check';
import { checkCopyDocument } from '../../../worker/translations/copy-document';

/**
 * A marketer's copy may not state a price by hand on a screen that sells, nor a saving by hand,
 * nor hold bidirectional controls anywhere: the console, the CLI and the worker's publish share
 * these rules (shared/copy-rules.ts), each refusal at its path.
 */

const contentCheck = (raw: unknown) => {
  const parsed = parseContent(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return contentIssues(parsed.value);
};

describe('amounts typed by hand', () => {
  it.each([
    '$0.01 ($6.99)',
    'Only 6,99 € today',
    'USD 5',
    '5 USD a month',
    '£4.99',
    'R$ 29,90',
    '¥500',
    '499 ₹',
    '1 234,50 zł',
    'just 9.99$',
    'EUR\u00a06.99',
    '٦٫٩٩ $',
  ])('finds one in %j', (text) => {
    expect(handTypedPriceProblem(text)).toMatch(/must not state a price by hand/);
  });

  it.each([
    'Pay now',
    'Start my trial for {{price}}',
    '100% money-back guarantee',
    '10+ million users trust us',
    'Accuracy up to 5 meters',
    'Confirm with 3D Secure',
    'A trial of 7 days, then {{price}} every month',
    'USDA approved',
  ])('lets %j through', (text) => {
    expect(handTypedPriceProblem(text)).toBeNull();
  });

  it('is checked in the copy of selling screens, by key', () => {
    expect(sellingCopyKey('plans.pay.button')).toBe(true);
    expect(sellingCopyKey('kit.offer.ends_in')).toBe(true);
    expect(sellingCopyKey('screens.checkout_v3_tr.title')).toBe(true);
    expect(sellingCopyKey('screens.upsell_an_private.lead')).toBe(true);
    expect(sellingCopyKey('screens.one_pager.title')).toBe(false);
    expect(copyRuleProblems('screens.one_pager.title', 'x', 'From $1 a day')).toEqual([]);
  });
});

describe('savings typed by hand', () => {
  it('must go through {{percent}} where the English does', () => {
    expect(typedPercentProblem('Save {{percent}}%', 'Save 70%')).toMatch(/use \{\{percent\}\}/);
    expect(typedPercentProblem('Save {{percent}}%', 'Spare {{percent}} %')).toBeNull();
    expect(typedPercentProblem('100% money-back guarantee', '100% refund')).toBeNull();
  });
});

describe('bidirectional controls', () => {
  it.each([
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
  ])('refuses U+%s', (control) => {
    expect(bidiProblem(`Pay ${control}now`)).toMatch(/bidirectional control character U\+20/);
  });

  it('lets the marks a language needs through (U+200E, U+200F, U+061C)', () => {
    expect(bidiProblem('\u200fادفع الآن\u200e\u061c')).toBeNull();
  });
});

describe('the validators refuse them at their path', () => {
  it("in a checkout's content, whatever key its text overrides", () => {
    const issues = contentCheck({
      screens: {
        checkout_v3_tr: {
          copy: {
            de: {
              'plans.pay.button': '0,01 € (6,99 €) zahlen',
              'kit.trust.confidential': 'Nur USD 5',
            },
          },
        },
      },
    });
    expect(issues).toEqual([
      {
        path: 'content.screens.checkout_v3_tr.copy.de.plans.pay.button',
        message: expect.stringMatching(/must not state a price by hand \("0,01 €"\)/),
      },
      {
        path: 'content.screens.checkout_v3_tr.copy.de.kit.trust.confidential',
        message: expect.stringMatching(/must not state a price by hand \("USD 5"\)/),
      },
    ]);
  });

  it('in every screen and language, a bidirectional control', () => {
    const issues = contentCheck({
      screens: { one_pager: { copy: { ar: { 'screens.one_pager.title': 'حدد \u202eموقع' } } } },
    });
    expect(issues).toEqual([
      {
        path: 'content.screens.one_pager.copy.ar.screens.one_pager.title',
        message: expect.stringMatching(/U\+202E/),
      },
    ]);
  });

  it('in the copy document the console and `npm run translations` publish', () => {
    const checked = checkCopyDocument({
      en: { 'plans.pay.button': 'Pay $0.01 ($6.99)', 'landing.phone.locate': 'Locate\u2066' },
    });
    expect(checked.ok).toBe(false);
    expect(checked.ok ? [] : checked.errors).toEqual([
      {
        path: 'copy.en.landing.phone.locate',
        message: expect.stringMatching(/U\+2066/),
      },
      {
        path: 'copy.en.plans.pay.button',
        message: expect.stringMatching(/must not state a price by hand \("\$0\.01"\)/),
      },
    ]);
  });
});
