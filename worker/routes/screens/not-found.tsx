import type { NotFoundHandler } from 'hono';
import { Page } from '../../../screens/layout/Page';
import { NotFound } from '../../../screens/NotFound';
import { DEFAULT_THEME } from '../../../shared/theme';
import { requestBrand } from '../../funnel/locale';
import { brandedTranslator, shippedTranslator, shownLanguage } from '../../i18n';
import { renderPage } from '../../render/render-page';
import type { RootEnv } from '../../request/envs';
import { answerPage, queryOf } from './page-visit';

/** The catch-all `*` route: the fallback screen with status 404 (SPEC.md §2). */
export const notFoundPage: NotFoundHandler<RootEnv> = async (c) => {
  const language = shownLanguage(c.get('language') ?? 'en');
  // The 404 can come before the translations middleware has run (an early failure).
  const brand = requestBrand(c.get('config'), c.get('theme'));
  const t = brandedTranslator(c.get('t') ?? shippedTranslator(language), brand);
  c.get('logFields').screen = 'not_found';
  const page = await renderPage(
    <Page t={t} brand={brand}>
      <NotFound t={t} startUrl={`/${queryOf(c.req.url)}`} />
    </Page>,
    {
      nonce: c.get('nonce'),
      language,
      theme: c.get('theme') ?? DEFAULT_THEME,
      brand,
      title: t('not_found.title'),
      status: 404,
    },
  );
  return answerPage(c, page);
};
