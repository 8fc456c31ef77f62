import type { AccessCheck } from '../access/console-access';
import type { ConfigSource } from '../config/load';
import type { RandomSource } from '../funnel/flow';
import type { TranslationSource } from '../translations/source';

/**
 * What the sub-apps' middleware share: one config and one translations source per app, so each
 * sub-app reads the same per-isolate caches, and the clock and hash tests fix.
 */
export interface MiddlewareDeps {
  configSource: ConfigSource;
  /**
   * Who a request is from, by Cloudflare Access: the console's guard, and a preview cookie's
   * holder on the funnel's pages (one key cache per app).
   */
  access: AccessCheck;
  translationSource: TranslationSource;
  now?: () => number;
  random?: RandomSource;
}
