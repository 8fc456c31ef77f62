import type { TFunction } from 'i18next';
import { LANGUAGES, shippedTextAsset } from '../../locales';
import type { CopyDocument } from '../../shared/config/copy';
import {
  type Dictionary,
  type ParseResult,
  parseDictionary,
  parseManifest,
  type TranslationManifest,
} from '../../shared/config/translations';
import { describeError, logError } from '../../shared/log';
import { cookieValue } from '../attribution/cookie-header';
import { DEFAULT_LANGUAGE } from '../funnel/locale';
import { type AnswerHeaders, clearAnswerCookie, setAnswerCookie } from '../http/answer-cookies';
import {
  keepShippedText,
  shippedDictionary,
  shippedTranslator,
  translatorWithOverride,
} from '../i18n';
import { afterAnswer, type RunsInRequest } from '../request/after-answer';
import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerify } from '../signing';
import { storedCopy } from './copy-document';

/**
 * The copy a request is drawn with: the published override in KV, read through a cache per
 * isolate, over the shipped text (loadShippedText, below); or, for a marketer previewing from the
 * console, their draft.
 */

/** KV keys (FUNNEL_CONFIG namespace) of the copy that overrides the bundled files. */
export const TRANSLATION_KEYS = {
  manifest: 'translations:manifest',
  dictionary: (language: string, timestamp: number) => `translations:${language}:${timestamp}`,
} as const;

/** How long a read manifest is reused by an isolate before KV is read again. */
export const DEFAULT_TRANSLATIONS_TTL_MS = 10_000;

/**
 * SPEC.md §9 retries a translation read up to 5 times, 350 ms apart and doubling: up to 11 s,
 * which at the edge would hold a page that much. Here a read that throws is tried once more at
 * once, then the page is served with the bundled text (or the last good copy) and the next
 * request after the TTL tries again, so the TTL is the backoff. Each request reads at most two
 * keys, one after the other, well under SPEC.md's 10 parallel reads.
 */
const READ_ATTEMPTS = 2;

type Failure = 'translations_missing' | 'translations_invalid' | 'translations_unreadable';

type Read<T> = { ok: true; value: T } | { ok: false; code: Failure; error: string };

async function readKey<T>(
  kv: KVNamespace,
  key: string,
  parse: (raw: string) => ParseResult<T>,
): Promise<Read<T | null>> {
  let lastError = '';
  for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt += 1) {
    let raw: string | null;
    try {
      raw = await kv.get(key, 'text');
    } catch (error) {
      lastError = (error as Error).message;
      continue;
    }
    if (raw === null) return { ok: true, value: null };
    const parsed = parse(raw);
    return parsed.ok ? parsed : { ok: false, code: 'translations_invalid', error: parsed.error };
  }
  return { ok: false, code: 'translations_unreadable', error: lastError };
}

async function loadOverride(
  kv: KVNamespace,
  language: string,
  timestamp: number,
): Promise<Read<Dictionary>> {
  const key = TRANSLATION_KEYS.dictionary(language, timestamp);
  const read = await readKey(kv, key, parseDictionary);
  if (!read.ok) return read;
  if (read.value === null) {
    return { ok: false, code: 'translations_missing', error: `KV key "${key}" is missing` };
  }
  return { ok: true, value: read.value };
}

/**
 * Copy updates without a deploy (SPEC.md §7 content service, kept in KV at the edge): a
 * manifest names a timestamp and the languages that have an override; each override is stored
 * under its language and timestamp, so a new upload is a new key and a cached one never goes
 * stale. Per isolate the manifest is read at most once per TTL and each language's override
 * once per timestamp. Anything wrong (unreadable, invalid, missing) never breaks a page: the
 * last good copy this isolate saw for the language is used, else the bundled text, and an
 * error line with a stable code is logged (SPEC.md §8).
 */
export function createTranslationSource({ now = Date.now }: { now?: () => number } = {}) {
  let manifest: { value: TranslationManifest | null; readAt: number } | undefined;
  /** Per language, the newest override that loaded, with the timestamp it was stored under. */
  const loaded = new Map<string, { timestamp: number; t: TFunction }>();
  /** Per language, the override that last failed to load, and when: not read again in the TTL. */
  const failed = new Map<string, { timestamp: number; at: number }>();

  async function currentManifest(kv: KVNamespace, ttlMs: number) {
    if (manifest && now() - manifest.readAt < ttlMs) return manifest.value;
    const read = await readKey(kv, TRANSLATION_KEYS.manifest, parseManifest);
    // No manifest is the normal state before any copy is uploaded: no override, nothing logged.
    let value = read.ok ? read.value : null;
    if (!read.ok) {
      value = manifest?.value ?? null;
      logError(read.code, {
        key: TRANSLATION_KEYS.manifest,
        detail: read.error,
        using: value ? 'last_known_good' : 'bundled',
      });
    }
    manifest = { value, readAt: now() };
    return value;
  }

  return {
    /**
     * The translator for `language` with the override in effect over its shipped text, loaded
     * from `shipped` beside the manifest's read (else already held: Node, the tests). Where the
     * language's shipped text cannot be loaded, English's with English's override (SPEC.md §9).
     */
    async translatorFor(
      kv: KVNamespace,
      asked: string,
      ttlMs: number,
      shipped: ShippedTextSource = { assets: undefined },
    ): Promise<TFunction> {
      const [held, current] = await Promise.all([
        loadShippedText(shipped, asked),
        currentManifest(kv, ttlMs),
      ]);
      const language = held ? asked : DEFAULT_LANGUAGE;
      if (!current?.languages.includes(language)) return shippedTranslator(language);

      const { timestamp } = current;
      const known = loaded.get(language);
      if (known?.timestamp === timestamp) return known.t;
      const failure = failed.get(language);
      if (failure?.timestamp === timestamp && now() - failure.at < ttlMs) {
        return known?.t ?? shippedTranslator(language);
      }

      // Each request reads KV itself rather than awaiting another request's read: workerd ties
      // I/O to the request that started it (see worker/config/load.ts).
      const read = await loadOverride(kv, language, timestamp);
      if (read.ok) {
        const t = translatorWithOverride(language, read.value);
        loaded.set(language, { timestamp, t });
        failed.delete(language);
        return t;
      }
      failed.set(language, { timestamp, at: now() });
      logError(read.code, {
        key: TRANSLATION_KEYS.dictionary(language, timestamp),
        detail: read.error,
        using: known ? 'last_known_good' : 'bundled',
      });
      return known?.t ?? shippedTranslator(language);
    },
  };
}

export type TranslationSource = ReturnType<typeof createTranslationSource>;

/**
 * A marketer's preview of copy not yet published: the console stores the draft (checked, every
 * language's overrides) in KV for an hour under a random id and answers preview links carrying
 * a token that names it, signed with the preview key. Opening such a link sets the token as a
 * cookie (any other preview link clears it: worker/console/preview-route.ts), and a page whose
 * request carries that cookie *and* a preview cookie valid for its browser
 * (worker/request/visit-facts.ts) is drawn with the draft's text; ending the preview ends it. A visitor has neither cookie: their
 * request costs one cookie lookup, no KV read.
 */

const COPY_DRAFT_COOKIE = 'gf_copy_draft';

/** The preview link's query parameter that carries a draft's token. */
export const DRAFT_PARAMETER = 'copy_draft';

/** As long as a preview lasts (worker/preview/preview.ts). */
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
 * no draft (no cookie, a forged or expired one, no preview in this browser, `previewing` being
 * worker/request/visit-facts.ts's verdict, or the draft is gone from KV).
 */
export async function draftTranslator(
  kv: KVNamespace,
  cookieHeader: string | undefined,
  request: {
    key: string | null;
    previewing: boolean;
    language: string;
    nowMs: number;
    shipped?: ShippedTextSource;
  },
): Promise<TFunction | null> {
  const { key, language, nowMs } = request;
  const token = cookieValue(cookieHeader, COPY_DRAFT_COOKIE);
  if (token === undefined || key === null || !request.previewing) return null;
  const id = await verifyDraftToken(key, token, nowMs);
  if (id === null) return null;
  const raw = await kv.get(draftKey(id), 'text');
  if (raw === null) return null;
  const copy = storedCopy(raw, draftKey(id));
  if (copy === null) return null;
  await loadShippedText(request.shipped ?? { assets: undefined }, language);
  return translatorWithOverride(language, copy[language] ?? {});
}

/**
 * The shipped text of the languages but English, loaded from the static assets (the worker's
 * ASSETS binding; the build writes them: scripts/shipped-text-assets.ts) at the isolate's first request
 * in each language, and kept for the isolate's life. English is in the worker's code. Requests
 * in a language being loaded wait on that one load; one that fails is logged once and its
 * requests get English (SPEC.md §9: a failed load falls back to the built-in English text, and
 * the page still renders), and the next request after FAILED_LOAD_PAUSE_MS tries again.
 */

/** How long after a failed load its language's requests get English without asking again. */
const FAILED_LOAD_PAUSE_MS = 10_000;

/**
 * An ASSETS fetch that throws is tried once more at once, as a KV read of the copy is
 * (READ_ATTEMPTS above: SPEC.md §9's 5 retries 350 ms apart would hold the page).
 */
const FETCH_ATTEMPTS = 2;

/** Any origin: the ASSETS binding answers by path. */
const ASSETS_ORIGIN = 'https://assets.invalid';

/** What a request lends the load: the binding, and its waitUntil to keep the load alive. */
export interface ShippedTextSource {
  assets: Fetcher | undefined;
  /**
   * The request's `waitUntil`. A load started by one request is awaited by the others in its
   * language, and workerd ties I/O to the request that started it: were that request cancelled
   * (its visitor gone), its fetch would be, leaving the others waiting on a load that never ends
   * (worker/config/load.ts saw it). waitUntil keeps the starting request's I/O alive to the end.
   */
  keepAlive?: (load: Promise<unknown>) => void;
}

/** A handler's request as a source: its ASSETS binding, its waitUntil. */
export function shippedTextFor(
  request: RunsInRequest & { readonly env: { ASSETS?: Fetcher } },
): ShippedTextSource {
  return { assets: request.env.ASSETS, keepAlive: (load) => afterAnswer(request, load) };
}

const loading = new Map<string, Promise<boolean>>();
const failedAt = new Map<string, number>();

/**
 * Resolves true once the isolate holds `language`'s shipped text (at once for English or a
 * language loaded before), false when it cannot (not shipped, or the load failed: logged).
 */
export function loadShippedText(
  source: ShippedTextSource,
  language: string,
  now: () => number = Date.now,
): Promise<boolean> {
  if (shippedDictionary(language)) return Promise.resolve(true);
  if (!LANGUAGES.includes(language)) return Promise.resolve(false);
  const pending = loading.get(language);
  if (pending) return pending;
  const failed = failedAt.get(language);
  if (failed !== undefined && now() - failed < FAILED_LOAD_PAUSE_MS) return Promise.resolve(false);
  const load = fetchShippedText(source.assets, language).then((dictionary) => {
    loading.delete(language);
    if (dictionary === null) {
      failedAt.set(language, now());
      return false;
    }
    failedAt.delete(language);
    keepShippedText(language, dictionary);
    return true;
  });
  loading.set(language, load);
  source.keepAlive?.(load);
  return load;
}

/** Every shipped language loaded (the console's catalogues show them all); false if any failed. */
export async function loadEveryShippedText(source: ShippedTextSource): Promise<boolean> {
  const loads = await Promise.all(LANGUAGES.map((language) => loadShippedText(source, language)));
  return loads.every(Boolean);
}

/** The language's dictionary from the assets, or null (logged) when it cannot be had. */
async function fetchShippedText(
  assets: Fetcher | undefined,
  language: string,
): Promise<Dictionary | null> {
  const path = shippedTextAsset(language);
  let detail = 'the worker has no ASSETS binding';
  for (let attempt = 1; assets && attempt <= FETCH_ATTEMPTS; attempt += 1) {
    try {
      const response = await assets.fetch(new URL(path, ASSETS_ORIGIN));
      if (!response.ok) {
        await response.body?.cancel();
        detail = `${path} answered ${response.status}`;
        break;
      }
      const dictionary: unknown = await response.json();
      if (typeof dictionary === 'object' && dictionary !== null && !Array.isArray(dictionary)) {
        return dictionary as Dictionary;
      }
      detail = `${path} is not a dictionary`;
      break;
    } catch (error) {
      detail = describeError(error);
    }
  }
  logError('translations_asset_unreadable', { language, path, detail, using: 'en' });
  return null;
}
