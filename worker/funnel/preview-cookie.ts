import { CONSOLE_PREVIEW_PATH } from '../../shared/console-api/config';
import { logLine } from '../../shared/log';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { type AnswerHeaders, clearAnswerCookie, setAnswerCookie } from '../http/answer-cookies';
import {
  PREVIEW_TTL_SECONDS,
  type PreviewedRoute,
  type PreviewRejection,
  signPreview,
  signRoutePreview,
  verifyPreview,
} from './preview';

/**
 * The cookie of a marketer's preview (preview.ts): set by the console's preview link
 * (worker/console/preview-route.ts), read by the split test on every page and by the collector.
 */
export const PREVIEW_COOKIE = 'gf_preview';

/** Where the preview bar's link goes: clears the cookie (worker/console/preview-route.ts). */
export const PREVIEW_END_URL = `${CONSOLE_PREVIEW_PATH}?end=1`;

/**
 * Signs previews under `npm start` and in the tests, where no secret is set. Public by being in
 * the repository, so it is never used outside development.
 */
const DEVELOPMENT_PREVIEW_KEY = 'geofunnel-development-preview-key';

/** The key previews are signed with: the secret, else in development a fixed one, else none. */
export function previewKey(env: Bindings): string | null {
  if (env.CONSOLE_PREVIEW_KEY) return env.CONSOLE_PREVIEW_KEY;
  return isDevelopment(env) ? DEVELOPMENT_PREVIEW_KEY : null;
}

/**
 * Sets the preview cookie for a variant (its key) or a route, lasting PREVIEW_TTL_SECONDS from
 * `nowMs`.
 */
export async function startPreview(
  headers: AnswerHeaders,
  key: string,
  subject: string | PreviewedRoute,
  nowMs: number,
): Promise<void> {
  const expiresAt = Math.floor(nowMs / 1000) + PREVIEW_TTL_SECONDS;
  const token =
    typeof subject === 'string'
      ? await signPreview(key, subject, expiresAt)
      : await signRoutePreview(key, subject, expiresAt);
  // HttpOnly: no page script needs it, and an injected one could not carry it elsewhere.
  setAnswerCookie(headers, PREVIEW_COOKIE, token, {
    maxAge: PREVIEW_TTL_SECONDS,
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  });
}

export function endPreview(headers: AnswerHeaders): void {
  clearAnswerCookie(headers, PREVIEW_COOKIE, { path: '/', secure: true });
}

export type PreviewCookie =
  | { state: 'none' }
  | { state: 'valid'; variant: string }
  | { state: 'valid'; route: PreviewedRoute }
  /** not_configured: a cookie reached a worker without the key (outside development). */
  | { state: 'invalid'; reason: PreviewRejection | 'not_configured' };

/**
 * What the request's preview cookie (`token`, its value) says, checked against the key
 * (previewKey) at `nowMs`.
 */
export async function readPreviewCookie(
  token: string | undefined,
  key: string | null,
  nowMs: number,
): Promise<PreviewCookie> {
  if (token === undefined) return { state: 'none' };
  if (key === null) return { state: 'invalid', reason: 'not_configured' };
  const verdict = await verifyPreview(key, token, nowMs);
  if (!verdict.ok) return { state: 'invalid', reason: verdict.reason };
  return 'route' in verdict
    ? { state: 'valid', route: verdict.route }
    : { state: 'valid', variant: verdict.variant };
}

/**
 * A preview cookie the page does not honour (forged, expired, tampered with, or naming a variant
 * that is gone): one warning line, and the cookie is cleared so the next page does not repeat it.
 */
export function ignorePreviewCookie(
  headers: AnswerHeaders,
  requestId: string,
  reason: PreviewRejection | 'not_configured' | 'unknown_variant',
): void {
  logLine({ id: requestId, level: 'warn', warning: 'preview_cookie_ignored', reason });
  endPreview(headers);
}
