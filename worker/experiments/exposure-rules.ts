import { isScreenId } from '../../shared/screens';
import type { BotReason } from './bots';

/** What the worker knows of a request once its answer is ready. */
export interface AnsweredRequest {
  method: string;
  path: string;
  status: number;
  /** The split test drew the variant on this request and set `gf_variant` (variant.isNew). */
  freshDraw: boolean;
  /** A marketer's preview (worker/funnel/preview.ts). */
  preview: boolean;
  /** `?skip_split=true` (SPEC.md §4). */
  skipSplit: boolean;
  /** A speculative prefetch or prerender, not (yet) a visit. */
  speculative: boolean;
  bot: BotReason | null;
}

/**
 * Whether the request exposed a visitor to the split test ('exposed'), would have but came from
 * a known bot ('bot'), or neither (null). A visitor is exposed where the variant is drawn: the
 * fresh draw that sets `gf_variant`, on a funnel screen the visitor was shown (a GET of `/` or
 * `/<screen id>` answered 200). Everything after keeps that variant, so each visitor is exposed
 * once, in the phase of the draw. A preview and `skip_split` draw nothing and never count; the
 * API, the collector, the console and assets are no screens.
 */
export function exposureVerdict(request: AnsweredRequest): 'exposed' | 'bot' | null {
  if (!request.freshDraw || request.preview || request.skipSplit || request.speculative) {
    return null;
  }
  if (request.method !== 'GET' || request.status !== 200 || !isFunnelScreenPath(request.path)) {
    return null;
  }
  return request.bot === null ? 'exposed' : 'bot';
}

/** `/` (the first screen of the visitor's flow) or `/<screen id>` (worker/routes/screens.tsx). */
function isFunnelScreenPath(path: string): boolean {
  return path === '/' || isScreenId(path.slice(1));
}

/**
 * A speculative fetch, as browsers mark it: `Sec-Purpose: prefetch` (speculation rules, link
 * prefetch; `prefetch;prerender` for a prerender), or the older `Purpose` / `X-Moz: prefetch`.
 * The request log marks the same requests `"prefetch":true`.
 */
export function isSpeculative(header: (name: string) => string | undefined): boolean {
  return ['sec-purpose', 'purpose', 'x-moz'].some((name) =>
    header(name)?.toLowerCase().includes('prefetch'),
  );
}
