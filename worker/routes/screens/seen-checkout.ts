import { isPaywallScreen } from '../../../shared/screens';
import { queueSeenStep } from '../../collector/seen-steps';
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
export async function seeCheckout(
  page: PageRequest,
  visit: PageVisit,
  shown: { screen: Shown['screen']; status: number },
  at: number,
): Promise<void> {
  if (!isPaywallScreen(shown.screen) || shown.status !== 200) return;
  const signedIn =
    visit.carried.account !== undefined || (await heldAccount(page.cookies)) !== null;
  if (!signedIn) return;
  const { facts } = visit;
  queueSeenStep(
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
  );
}
