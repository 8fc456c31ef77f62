import { isPaywallScreen } from '../../../shared/screens';
import { sendSeenStep } from '../../collector/seen-steps';
import { afterAnswer } from '../../request/after-answer';
import { heldAccount } from '../../request/signed-in-user';
import type { PageRequest } from '../../request/visit';
import type { PageVisit, Shown } from './page-visit';

/**
 * The checkout step as the worker saw it (worker/collector/seen-steps.ts): a checkout or
 * paywall page served whole (not a form refused, whose status is its own) to a visitor signed in
 * here: the account cookie signed for this visitor (worker/request/signed-in-user.ts), or the
 * account a sign-up form without script has just carried to this page. A bot that only loads
 * pages reaches no checkout: it would have to get through a sign-up, which the limits bound.
 */
export function seeCheckout(
  page: PageRequest,
  visit: PageVisit,
  shown: { screen: Shown['screen']; status: number },
  at: number,
): void {
  if (!isPaywallScreen(shown.screen) || shown.status !== 200) return;
  const { facts } = visit;
  // Whether the session is this visitor's is read after the answer, off the page's path.
  const signedIn = async () =>
    visit.carried.account !== undefined || (await heldAccount(page.cookies)) !== null;
  const queued = signedIn().then((held) =>
    held
      ? sendSeenStep(
          {
            env: visit.env,
            requestId: facts.requestId,
            request: visit.request,
            country: facts.country,
            visitorId: facts.visitor.id,
            route: facts.route.id,
            preview: facts.arms.preview !== undefined,
            executionCtx: visit.executionCtx,
          },
          'checkout_screen_load',
          at,
        )
      : undefined,
  );
  afterAnswer(visit, queued);
}
