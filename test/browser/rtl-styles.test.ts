import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criticalCss } from '../../screens/styles';
import { DEFAULT_BRANDS } from '../../shared/brand';
import { THEMES, type Theme } from '../../shared/theme';
import { directionOf } from '../../worker/i18n';
import { sharedBrowser } from './harness';

/**
 * SPEC.md §9: right-to-left layout, and Arabic specially styled. Real Chromium computes the
 * styles, since a DOM emulation does not resolve :lang() the way a browser does: the browser
 * project's, which its files share (harness.ts), with no worker, as the page is written here.
 */

let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  context = await (await sharedBrowser()).newContext();
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
});

/** A page as the worker writes it: `lang` and `dir` on <html>, the theme's critical CSS. */
async function open(language: string, theme: Theme = 'geozilla') {
  // Another component's class rule, as a screen would add one.
  const componentCss = '.plan-label{letter-spacing:2px}';
  await page.setContent(
    `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head>` +
      `<style>${criticalCss(theme, DEFAULT_BRANDS[theme].logos.header)}${componentCss}</style></head><body><main class="page">` +
      '<h1>عنوان</h1><span class="plan-label">نص</span>' +
      '<svg class="rtl-mirror" width="10" height="10"></svg>' +
      '<input type="tel" value="+1 202 555 0100"><input type="text" value="نص">' +
      '<button class="button">متابعة</button></main></body></html>',
  );
  return (selector: string, property: string) =>
    page.$eval(
      selector,
      (element, name) => getComputedStyle(element).getPropertyValue(name),
      property,
    );
}

describe('Arabic pages', () => {
  it.each(THEMES)('use an Arabic-friendly font stack in the %s theme', async (theme) => {
    const ar = await open('ar', theme);
    expect(await ar('body', 'font-family')).toMatch(/^"Segoe UI", "Noto Sans Arabic"/);
    expect(await ar('.button', 'font-family')).toMatch(/^"Segoe UI", "Noto Sans Arabic"/);
    const en = await open('en', theme);
    expect(await en('body', 'font-family')).not.toContain('Noto Sans Arabic');
  });

  it('set text with a larger line-height than the other languages', async () => {
    const en = await open('en');
    const enBody = Number.parseFloat(await en('body', 'line-height'));
    const enButton = Number.parseFloat(await en('.button', 'line-height'));
    const ar = await open('ar');
    expect(Number.parseFloat(await ar('body', 'line-height'))).toBeGreaterThan(enBody * 1.1);
    expect(Number.parseFloat(await ar('h1', 'line-height'))).toBeGreaterThan(
      Number.parseFloat(await ar('h1', 'font-size')) * 1.3,
    );
    expect(Number.parseFloat(await ar('.button', 'line-height'))).toBeGreaterThan(enButton);
  });

  it('never space out letters, which would break the joins of Arabic script', async () => {
    expect(await (await open('en'))('.plan-label', 'letter-spacing')).toBe('2px');
    expect(await (await open('ar'))('.plan-label', 'letter-spacing')).toBe('normal');
  });
});

describe('right-to-left pages', () => {
  it('mirror direction icons marked .rtl-mirror, and only there', async () => {
    expect(await (await open('ar'))('.rtl-mirror', 'transform')).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    expect(await (await open('en'))('.rtl-mirror', 'transform')).toBe('none');
  });

  it('keep phone numbers left-to-right, aligned with the right-to-left text', async () => {
    const ar = await open('ar');
    expect(await ar('input[type=tel]', 'direction')).toBe('ltr');
    expect(await ar('input[type=tel]', 'text-align')).toBe('right');
    expect(await ar('input[type=text]', 'direction')).toBe('rtl');
    expect(await (await open('en'))('input[type=tel]', 'text-align')).toBe('start');
  });

  it('align body text to the right', async () => {
    expect(await (await open('ar'))('main', 'text-align')).toBe('right');
  });
});
