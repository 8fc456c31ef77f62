import { Hono } from 'hono';
import { SCREENS as DEFAULT_SCREENS } from '../../../screens/registry';
import type { ApiDependencies } from '../../api/call-handler';
import { RenderedScreens } from '../../render/rendered-screens';
import type { AppEnv } from '../../request/envs';
import { screenFormGuard } from '../../request/form-guards';
import { type PageRequest, pageRequestOf } from '../../request/visit';
import { continueForm, onOwnForms } from './continue-form';
import {
  answerPage,
  pageVisitOf,
  type ScreenDeps,
  type Screens,
  type Shown,
  shownOf,
} from './page-visit';
import { seeCheckout } from './seen-checkout';
import { showScreen } from './show-screen';

export { notFoundPage } from './not-found';

/**
 * Bodies kept per isolate: every screen in a few languages, themes and countries. At about 30 KB
 * each, 256 take some 8 MB of the isolate's 128 MB.
 */
const RENDERED_SCREENS_KEPT = 256;

/**
 * Screen routes (SPEC.md §2): `/` shows the first screen of the visitor's flow, `/:screenId`
 * each screen, a POST to a screen (its Continue form without JavaScript) moves to the next
 * (./continue-form.ts).
 */
export function screenRoutes(
  api: ApiDependencies,
  screens: Screens = DEFAULT_SCREENS,
  renderedScreens: RenderedScreens | null = new RenderedScreens(RENDERED_SCREENS_KEPT),
) {
  const deps: ScreenDeps = { api, screens, renderedScreens };
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const first = shownOf(c.get('config').content, c.get('flow').screens[0]);
    if (!first) return c.notFound();
    return answerPage(c, await screenPage(deps, pageRequestOf(c), first));
  });

  app.get('/:screenId', async (c) => {
    const shown = shownOf(c.get('config').content, c.req.param('screenId'));
    if (!shown) return c.notFound();
    return answerPage(c, await screenPage(deps, pageRequestOf(c), shown));
  });

  app.post('/:screenId', onOwnForms(screens, screenFormGuard), ...continueForm(deps));

  return app;
}

/** A screen's page for a GET, and the checkout step it shows the visitor took (./seen-checkout.ts). */
async function screenPage(deps: ScreenDeps, page: PageRequest, shown: Shown): Promise<Response> {
  const visit = await pageVisitOf(page, deps, shown);
  const shownPage = await showScreen(deps, visit, shown);
  const at = deps.api.now();
  seeCheckout(page, visit, { screen: shown.screen, status: shownPage.status }, at);
  return shownPage;
}
