import { type Brand, brandOf } from '../../shared/brand';
import type { ContentDocument } from '../../shared/config/content';
import { DEFAULT_THEME, type Theme } from '../../shared/theme';

/**
 * The brand of a request's pages: its theme's (worker/funnel/locale.ts), as the content in effect
 * gives it, else the one in code. Either may be missing on a page answered before the middleware
 * that sets it ran (an early failure's error page).
 */
export function requestBrand(
  config: { content: ContentDocument } | undefined,
  theme: Theme | undefined,
): Brand {
  return brandOf(config?.content.brands, theme ?? DEFAULT_THEME);
}
