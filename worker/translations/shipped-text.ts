import { LANGUAGES, shippedTextAsset } from '../../locales';
import type { Dictionary } from '../../shared/config/translations';
import { describeError, logError } from '../../shared/log';
import { afterAnswer, type RunsInRequest } from '../after-answer';
import { keepShippedText, shippedDictionary } from '../i18n';

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
 * (./source.ts, READ_ATTEMPTS: SPEC.md §9's 5 retries 350 ms apart would hold the page).
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
