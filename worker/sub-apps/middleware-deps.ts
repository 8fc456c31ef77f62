import type { ConfigSource } from '../config/load';
import type { RandomSource } from '../funnel/flow';
import type { TranslationSource } from '../translations/source';

/**
 * What the sub-apps' middleware share: one config and one translations source per app, so each
 * sub-app reads the same per-isolate caches, and the clock and hash tests fix.
 */
export interface MiddlewareDeps {
  configSource: ConfigSource;
  translationSource: TranslationSource;
  now?: () => number;
  random?: RandomSource;
}
