import { CONSOLE_API } from '../../shared/console-api/config';
import { CONSOLE_CONTENT_API } from '../../shared/console-api/content';
import { CONSOLE_COPY_API } from '../../shared/console-api/copy';
import { CONSOLE_DRAFT_API } from '../../shared/console-api/draft';
import type { TokenScope } from '../../shared/console-api/tokens';

/**
 * What a console token may call (shared/console-api/tokens.ts), decided here by the request's
 * method and path, never by the token. Anything not named is refused: a call added to the
 * console later is a person's until it is named here. No token publishes, rolls back, approves,
 * restores, moves a ramp, checks the guardrails, acknowledges an alert, changes the picture
 * library, takes a preview cookie or makes tokens.
 */

/**
 * What a request needs of a token:
 * - a scope;
 * - 'draft': the token's own change set (worker/console/draft-route.ts): reading it needs
 *   `read`, a save the scope of what it changes, a review request a write scope;
 * - 'never': people only.
 */
export type TokenNeed = TokenScope | 'draft' | 'never';

/** The calls that compute an answer and write nothing, though posted. */
const READ_ONLY_POSTS: ReadonlySet<string> = new Set([
  CONSOLE_API.check,
  CONSOLE_API.routeTest,
  CONSOLE_API.visitorGets,
  CONSOLE_COPY_API.check,
  CONSOLE_CONTENT_API.languages,
]);

/** Previews of a draft's content or copy: nothing published, a preview link made. */
const CONTENT_PREVIEWS: ReadonlySet<string> = new Set([
  CONSOLE_COPY_API.preview,
  CONSOLE_CONTENT_API.preview,
  CONSOLE_CONTENT_API.saveOfferPreview,
]);

/** The token's own change set: the draft itself and its review request. */
const DRAFT_CALLS: ReadonlySet<string> = new Set([
  CONSOLE_DRAFT_API.draft,
  CONSOLE_DRAFT_API.review,
]);

/**
 * Traffic and money kept beside the config rather than in a draft, written at once: the ad
 * costs' imports and deletes (worker/console/ad-costs-route.ts). They need `traffic`, the scope
 * of the split's and the experiments' edits, which decide where that money goes.
 */
const TRAFFIC_WRITES: ReadonlySet<string> = new Set([CONSOLE_API.adCosts]);

/** Calls under the console API that stay a person's even to read. */
const PEOPLE_ONLY_PREFIXES = ['/console/api/tokens', `${CONSOLE_DRAFT_API.draft}/change-sets`];

export function tokenNeeds(method: string, path: string): TokenNeed {
  if (!path.startsWith('/console/api/')) return 'never';
  if (PEOPLE_ONLY_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return 'never';
  }
  if (DRAFT_CALLS.has(path)) {
    const ownDraft =
      (path === CONSOLE_DRAFT_API.draft && ['GET', 'HEAD', 'PUT'].includes(method)) ||
      (path === CONSOLE_DRAFT_API.review && method === 'POST');
    return ownDraft ? 'draft' : 'never';
  }
  if (method === 'GET' || method === 'HEAD') return 'read';
  if (TRAFFIC_WRITES.has(path))
    return method === 'POST' || method === 'DELETE' ? 'traffic' : 'never';
  if (method !== 'POST') return 'never';
  if (READ_ONLY_POSTS.has(path)) return 'read';
  if (CONTENT_PREVIEWS.has(path)) return 'content';
  return 'never';
}
