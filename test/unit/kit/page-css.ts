import { criticalCss } from '../../../screens/styles';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import type { Theme } from '../../../shared/theme';

/**
 * Puts the page's real critical CSS into happy-dom, so a test reads the computed style a
 * visitor's browser would apply; `screenCss` is a screen's own (SCREENS[id].css). Call it (and
 * set the viewport) before rendering.
 */
export function applyPageCss(theme: Theme = 'geozilla', screenCss = ''): () => void {
  const style = document.createElement('style');
  style.textContent = criticalCss(theme, DEFAULT_BRANDS[theme].logos.header, screenCss);
  document.head.appendChild(style);
  return () => style.remove();
}
