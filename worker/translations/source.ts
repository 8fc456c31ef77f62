import type { TFunction } from 'i18next';
import type { Dictionary } from '../../shared/config/translations';
import {
  type ParseResult,
  parseDictionary,
  parseManifest,
  type TranslationManifest,
} from '../../shared/config/translations';
import { logError } from '../../shared/log';
import { bundledTranslator, translatorWithOverride } from '../i18n';

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

  return {
    /** The translator for `language` with the override in effect, else the bundled text. */
    async translatorFor(kv: KVNamespace, language: string, ttlMs: number): Promise<TFunction> {
      const current = await currentManifest(kv, ttlMs);
      if (!current?.languages.includes(language)) return bundledTranslator(language);

      const { timestamp } = current;
      const known = loaded.get(language);
      if (known?.timestamp === timestamp) return known.t;
      const failure = failed.get(language);
      if (failure?.timestamp === timestamp && now() - failure.at < ttlMs) {
        return known?.t ?? bundledTranslator(language);
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
      return known?.t ?? bundledTranslator(language);
    },
  };
}

export type TranslationSource = ReturnType<typeof createTranslationSource>;
