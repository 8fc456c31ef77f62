import type { MiddlewareHandler } from 'hono';
import type { TFunction } from 'i18next';
import { previewKey } from '../funnel/preview-cookie';
import { draftTranslator } from '../translations/draft-preview';
import { DEFAULT_TRANSLATIONS_TTL_MS, type TranslationSource } from '../translations/source';
import type { AppEnv } from './envs';

/** Set by the translations middleware, after the locale's. */
export interface TranslationVariables {
  /** The page's copy in `language`, with any KV override in effect. */
  t: TFunction;
}

/**
 * Puts the request's translator on the context (`c.get('t')`): the KV override in effect for
 * the request's language (SPEC.md §7 content service), else the bundled text. Screens, the 404
 * and the error page read it from there. Runs after `locale`, which picks the language.
 */
export function translations(source: TranslationSource): MiddlewareHandler<AppEnv> {
  return async function translationsMiddleware(c, next) {
    // The funnel config's cache time applies to the manifest too, so tests that set it to 0
    // see every KV change at once.
    const ttl = Number(c.env.CONFIG_CACHE_TTL_MS ?? DEFAULT_TRANSLATIONS_TTL_MS);
    const ttlMs = Number.isFinite(ttl) && ttl >= 0 ? ttl : DEFAULT_TRANSLATIONS_TTL_MS;
    const language = c.get('language');
    // A marketer previewing unpublished copy from the console gets the draft's text instead.
    const draft = await draftTranslator(
      c.env.FUNNEL_CONFIG,
      c.req.header('Cookie'),
      previewKey(c.env),
      language,
      Date.now(),
    );
    c.set('t', draft ?? (await source.translatorFor(c.env.FUNNEL_CONFIG, language, ttlMs)));
    await next();
  };
}
