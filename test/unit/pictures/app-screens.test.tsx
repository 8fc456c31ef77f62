import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AppScreens } from '../../../screens/after/AppScreens';
import { SCREENS } from '../../../screens/registry';
import type { ScreenDefinition } from '../../../screens/types';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { shippedTranslator } from '../../../worker/i18n';

holdEveryLanguage();

/** The success screen's picture of the app (screens/after/AppScreens.tsx). */
describe("the success screen's app screens", () => {
  it('draws the map and the family list, named in every language', () => {
    const names = new Set<string>();
    for (const language of ['en', 'ar', 'ru', 'de', 'es', 'fr', 'pt']) {
      const html = renderToString(<AppScreens t={shippedTranslator(language)} />);
      expect(html).toContain('role="img"');
      expect(html).toContain('width="320" height="250"');
      const label = /aria-label="([^"]+)"/.exec(html)?.[1] ?? '';
      expect(label, language).not.toContain('after.success');
      names.add(label);
      expect(html).toContain('clip-path="url(#art-screen-map)"');
      expect(html).toContain('clip-path="url(#art-screen-list)"');
      expect(html).not.toMatch(/<image|href=|url\(http/);
    }
    expect(names.size).toBe(7);
  });

  it('is coloured by the theme only on the pages that show it', () => {
    const css = (id: keyof typeof SCREENS) => (SCREENS[id] as ScreenDefinition).css;
    expect(SCREENS.success.css).toContain('.art__brand{fill:var(--brand)}');
    expect(css('one_pager')).toContain('.art__brand{fill:var(--brand)}');
    expect(css('checkout_v3_tr')).not.toContain('.art__');
    expect(css('searching')).not.toContain('.art__');
  });
});
