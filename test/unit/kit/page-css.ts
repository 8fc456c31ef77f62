import { criticalCss } from '../../../screens/styles';
import type { Theme } from '../../../shared/theme';

/**
 * Puts the page's real critical CSS into happy-dom, so a test reads the computed style a
 * visitor's browser would apply. Call it (and set the viewport) before rendering.
 */
export function applyPageCss(theme: Theme = 'geozilla'): () => void {
  const style = document.createElement('style');
  style.textContent = criticalCss(theme);
  document.head.appendChild(style);
  return () => style.remove();
}
