import { isSellingScreen } from '../../../shared/plans/screen-offers';
import type { PageRequest } from '../../middleware/visit';
import { pageOfferClock } from '../../purchases/offer-deadline';
import { takePostedPhone } from '../phone-form';
import { takeSignedUp } from '../signup-form';
import type { Carried, PageVisit, ScreenDeps, Shown } from './page-visit';

/**
 * The door from a screen's route handler to the page code below it: the page's visit, made of
 * the handler's request once (worker/middleware/visit.ts pageRequestOf), with what the screen
 * before carried in, each cookie read and cleared here as the screen is shown.
 */
export async function pageVisitOf(
  page: PageRequest,
  deps: ScreenDeps,
  { screen }: Shown,
): Promise<PageVisit> {
  const carried: Carried = {
    // The offer countdown of a screen that sells with one (every selling screen but the guide's,
    // whose price is its own): its deadline is fixed on the first such page the visitor sees.
    offerClock:
      !isSellingScreen(screen) || screen === 'upsell_guide'
        ? { state: 'off' }
        : await pageOfferClock(page, page.vars.experiments.shape.countdown !== false, Date.now()),
    postedPhone: deps.screens[screen].takesPostedPhone ? takePostedPhone(page) : undefined,
    // Any screen may follow a signup screen in some flow: whichever comes next takes the account.
    account: takeSignedUp(page),
  };
  const { env, url, path, request, vars } = page;
  return { env, url, path, request, vars, carried };
}

/** What handing a rendered page to Hono needs of the handler's `c`: its body maker. */
interface PageAnswer {
  body(data: ReadableStream, init: ResponseInit): Response;
}

/** Hands a rendered page to Hono, so cookies and headers set by middleware go with it. */
export function answerPage(c: PageAnswer, page: Response): Response {
  return c.body(page.body as ReadableStream, page);
}
