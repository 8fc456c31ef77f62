import type { MiddlewareHandler } from 'hono';
import { isTheme } from '../../shared/theme';
import { honoursCustomLanguage } from '../environment';
import { resolveLanguage, resolveTheme } from '../funnel/locale';
import { shownLanguage } from '../i18n';
import { previewKey } from '../preview/preview';
import type { AppEnv } from '../request/envs';
import {
  DEFAULT_TRANSLATIONS_TTL_MS,
  draftTranslator,
  shippedTextFor,
  type TranslationSource,
} from '../translations/source';

/**
 * A page's language, theme and copy: `locale` picks the language and theme, then `translations`
 * puts that language's copy on the context. The pages, the app pages and the resume links run
 * both, in that order.
 */

/** A brand and language a sub-app's pages wear whatever the browser asks (a link's, signed in it). */
export type ChosenLook = { theme: string; language: string } | null;

/**
 * Resolves the page language (SPEC.md §9) and theme (SPEC.md §3) for the screens. `chosen`, where
 * a sub-app gives it, names the look its request's address carries (the subscriber links'
 * purchase look): each of its two that is a theme or language the worker has wins over the
 * browser's Accept-Language and the `?theme=` of the address.
 */
export function locale(options: {
  supported: readonly string[];
  chosen?: (pathname: string) => ChosenLook;
}): MiddlewareHandler<AppEnv> {
  return async function localeMiddleware(c, next) {
    const chosen = options.chosen?.(c.req.path) ?? null;
    c.set(
      'language',
      chosen && options.supported.includes(chosen.language)
        ? chosen.language
        : resolveLanguage({
            acceptLanguage: c.req.header('accept-language'),
            customLng: c.req.query('custom_lng'),
            supported: options.supported,
            customLngAllowed: honoursCustomLanguage(c.env),
          }),
    );
    c.set(
      'theme',
      resolveTheme(chosen && isTheme(chosen.theme) ? chosen.theme : c.req.query('theme')),
    );
    await next();
  };
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
    // The language's shipped text, loaded at the isolate's first request in it.
    const shipped = shippedTextFor(c);
    // A marketer previewing unpublished copy from the console gets the draft's text instead.
    const draft = await draftTranslator(c.env.FUNNEL_CONFIG, c.req.header('Cookie'), {
      key: previewKey(c.env),
      previewing: c.get('openedPreview') !== undefined,
      language,
      nowMs: Date.now(),
      shipped,
    });
    if (draft !== null) c.set('copyDraft', true);
    c.set(
      't',
      draft ?? (await source.translatorFor(c.env.FUNNEL_CONFIG, language, ttlMs, shipped)),
    );
    // Text that could not be loaded is English's, and the page says so (SPEC.md §9).
    c.set('language', shownLanguage(language));
    await next();
  };
}
