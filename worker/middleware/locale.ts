import type { MiddlewareHandler } from 'hono';
import type { Theme } from '../../shared/theme';
import { honoursCustomLanguage } from '../environment';
import { resolveLanguage, resolveTheme } from '../funnel/locale';
import type { AppEnv } from './envs';

/** Set by the locale middleware. */
export interface LocaleVariables {
  language: string;
  theme: Theme;
}

/** Resolves the page language (SPEC.md §9) and theme (SPEC.md §3) for the screens. */
export function locale(options: { supported: readonly string[] }): MiddlewareHandler<AppEnv> {
  return async function localeMiddleware(c, next) {
    c.set(
      'language',
      resolveLanguage({
        acceptLanguage: c.req.header('accept-language'),
        customLng: c.req.query('custom_lng'),
        supported: options.supported,
        customLngAllowed: honoursCustomLanguage(c.env),
      }),
    );
    c.set('theme', resolveTheme(c.req.query('theme')));
    await next();
  };
}
