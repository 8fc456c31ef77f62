import type { TFunction } from 'i18next';
import type { CopyDocument } from '../../shared/config/copy';
import { cookieValue } from '../attribution/cookie-header';
import { PREVIEW_COOKIE, readPreviewCookie } from '../funnel/preview-cookie';
import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerify } from '../hmac';
import { type AnswerHeaders, clearAnswerCookie, setAnswerCookie } from '../http/answer-cookies';
import { translatorWithOverride } from '../i18n';
import { storedCopy } from './copy-document';

/**
 * A marketer's preview of copy not yet published: the console stores the draft (checked, every
 * language's overrides) in KV for an hour under a random id and answers preview links carrying
 * a token that names it, signed with the preview key. Opening such a link sets the token as a
 * cookie (any other preview link clears it: worker/console/preview-route.ts), and a page whose
 * request carries that cookie *and* a valid preview cookie (worker/funnel/preview-cookie.ts) is
 * drawn with the draft's text; ending the preview ends it. A visitor has neither cookie: their
 * request costs one cookie lookup, no KV read.
 */

const COPY_DRAFT_COOKIE = 'gf_copy_draft';

/** The preview link's query parameter that carries a draft's token. */
export const DRAFT_PARAMETER = 'copy_draft';

/** As long as a preview lasts (worker/funnel/preview.ts). */
const DRAFT_TTL_SECONDS = 60 * 60;

const draftKey = (id: string) => `translations:draft:${id}`;

const ID = /^[0-9a-f-]{36}$/;

const signed = (id: string, expiresAt: number) => `copy-draft.${id}.${expiresAt}`;

/** Stores `copy` (already checked) for an hour from `nowMs`; the token that names it. */
export async function storeDraft(
  kv: KVNamespace,
  key: string,
  copy: CopyDocument,
  nowMs: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await kv.put(draftKey(id), JSON.stringify(copy), {
    expirationTtl: DRAFT_TTL_SECONDS,
  });
  const expiresAt = Math.floor(nowMs / 1000) + DRAFT_TTL_SECONDS;
  return `${id}.${expiresAt}.${await hmacSign(key, signed(id, expiresAt))}`;
}

/**
 * A preview link was opened: with a draft's valid token, its pages show that draft; without one
 * (or with a forged or expired one), the live copy.
 */
export async function followDraftLink(
  headers: AnswerHeaders,
  cookieHeader: string | undefined,
  key: string,
  token: string | undefined,
  nowMs: number,
): Promise<void> {
  const id = token === undefined ? null : await verifyDraftToken(key, token, nowMs);
  if (id === null || token === undefined) {
    if (cookieValue(cookieHeader, COPY_DRAFT_COOKIE) !== undefined) endDraftPreview(headers);
    return;
  }
  setAnswerCookie(headers, COPY_DRAFT_COOKIE, token, {
    maxAge: DRAFT_TTL_SECONDS,
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  });
}

/** Preview pages show the live copy again. */
function endDraftPreview(headers: AnswerHeaders): void {
  clearAnswerCookie(headers, COPY_DRAFT_COOKIE, { path: '/', secure: true });
}

/** The draft id a token names, if `key` signed it and it has not expired at `nowMs`. */
async function verifyDraftToken(key: string, token: string, nowMs: number): Promise<string | null> {
  const [id = '', expiry = '', signature = '', ...rest] = token.split('.');
  if (rest.length > 0 || !ID.test(id) || !/^\d{1,12}$/.test(expiry)) return null;
  const mac = base64urlBytes(signature);
  if (mac?.length !== HMAC_BYTES) return null;
  const expiresAt = Number(expiry);
  if (expiresAt * 1000 <= nowMs) return null;
  return (await hmacVerify(key, signed(id, expiresAt), mac)) ? id : null;
}

/**
 * The translator of the draft being previewed in `language`, or null when the request previews
 * no draft (no cookie, a forged or expired one, no preview, or the draft is gone from KV).
 */
export async function draftTranslator(
  kv: KVNamespace,
  cookieHeader: string | undefined,
  key: string | null,
  language: string,
  nowMs: number,
): Promise<TFunction | null> {
  const token = cookieValue(cookieHeader, COPY_DRAFT_COOKIE);
  if (token === undefined || key === null) return null;
  const id = await verifyDraftToken(key, token, nowMs);
  if (id === null) return null;
  if (
    (await readPreviewCookie(cookieValue(cookieHeader, PREVIEW_COOKIE), key, nowMs)).state !==
    'valid'
  ) {
    return null;
  }
  const raw = await kv.get(draftKey(id), 'text');
  if (raw === null) return null;
  const copy = storedCopy(raw, draftKey(id));
  return copy === null ? null : translatorWithOverride(language, copy[language] ?? {});
}
