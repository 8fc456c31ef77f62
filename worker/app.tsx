import { Hono } from 'hono';
import type { ScreenDefinition } from '../screens/registry';
import type { ScreenId } from '../shared/screens';
import { createConfigSource } from './config/load';
import type { AppEnv } from './env';
import type { RandomSource } from './funnel/split-test';
import { bundledTranslator, SUPPORTED_LANGUAGES } from './i18n';
import { logError } from './log';
import { country } from './middleware/country';
import { funnelConfig } from './middleware/funnel-config';
import { locale } from './middleware/locale';
import { requestLog } from './middleware/request-log';
import { securityHeaders } from './middleware/security-headers';
import { splitTest } from './middleware/split-test';
import { translations } from './middleware/translations';
import { visitor } from './middleware/visitor';
import { errorPage } from './render/render-page';
import { notFoundPage, screenRoutes } from './routes/screens';
import { createTranslationSource } from './translations/source';

export interface AppOptions {
  /** Source of the split-test draw; Math.random unless a test fixes it. */
  random?: RandomSource;
  /** Screen registry; tests swap in screens that fail on purpose. */
  screens?: Record<ScreenId, ScreenDefinition>;
}

export function createApp(options: AppOptions = {}) {
  const app = new Hono<AppEnv>();
  const configSource = createConfigSource();
  const translationSource = createTranslationSource();

  app.use(requestLog());
  app.use(securityHeaders());
  app.use(visitor());
  app.use(country());
  app.use(locale({ supported: SUPPORTED_LANGUAGES }));
  app.use(translations(translationSource));
  app.use(funnelConfig(configSource));
  app.use(splitTest({ random: options.random }));

  app.route('/', screenRoutes(options.screens));
  app.notFound(notFoundPage);

  app.onError((error, c) => {
    const fields = c.get('logFields');
    if (fields) fields.error = 'unhandled_exception';
    logError('unhandled_exception', {
      id: c.get('requestId'),
      path: c.req.path,
      detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    const language = c.get('language') ?? 'en';
    const t = c.get('t') ?? bundledTranslator(language);
    return errorPage({
      language,
      theme: c.get('theme') ?? 'geozilla',
      title: t('error_page.title'),
      lead: t('error_page.lead'),
      action: t('error_page.action'),
      retryUrl: new URL(c.req.url).pathname + new URL(c.req.url).search,
      requestId: c.get('requestId') ?? '',
    });
  });

  return app;
}
