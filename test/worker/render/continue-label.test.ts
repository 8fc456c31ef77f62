import { describe, expect, it } from 'vitest';
import { ALL_TRANSLATIONS } from '../../../locales/all';
import { freshApp } from '../fetch-app';

/**
 * SPEC.md §2 shared building blocks: the Continue button's default label comes from the
 * translation key `continue`. Every screen whose step is just "continue" shows that key's text,
 * in every shipped language, whether the button is the worker's form or an island's.
 */

const LANGUAGES = Object.keys(ALL_TRANSLATIONS);
const CONTINUE_SCREENS = ['/features', '/signup', '/signup_testim', '/auto-signup', '/searching'];

/** The text of the page's Continue button, as the worker rendered it. */
function continueLabel(html: string): string | undefined {
  return /<button id="continue-button"[^>]*>(?:<span[^>]*><\/span>)?([^<]*)<\/button>/.exec(
    html,
  )?.[1];
}

describe('the Continue button’s default label (SPEC.md §2: key `continue`)', () => {
  it('is translated in every shipped language', () => {
    for (const language of LANGUAGES) {
      expect(ALL_TRANSLATIONS[language]?.continue, language).toEqual(expect.any(String));
    }
  });

  it.each(LANGUAGES)('in %s, every plain Continue reads the key `continue`', async (language) => {
    const expected = ALL_TRANSLATIONS[language]?.continue;
    for (const path of CONTINUE_SCREENS) {
      const response = await freshApp()(path, { headers: { 'accept-language': language } });
      expect(continueLabel(await response.text()), `${path} in ${language}`).toBe(expected);
    }
  });
});
