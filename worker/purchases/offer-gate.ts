import { screensInCode } from '../../shared/composed-screens';
import { logWarning } from '../../shared/log';
import type { FunnelConfig } from '../config/load';
import { compiledExperiments, shapeOf } from '../experiments/config/evaluate';
import type { FunnelShape } from '../experiments/config/funnel-shape';
import { atControls, skipsSplit as linkSkipsSplit } from '../experiments/config/visitor-gets';
import type { ActiveFlow } from '../funnel/flow';
import { visitorCurrency } from '../funnel/visitor-currency';
import { type ApiRefusal, refusal } from '../http/api-error';
import type { VisitorExperiments } from '../request/envs';
import { holdsMainPurchase, type MainPurchaseKeeper } from './main-purchase';
import { checkOrder, offerOf } from './offer';

/**
 * The funnel whose screens the paying page showed. The `/api` call passes through the route and
 * experiments middleware like a page (worker/sub-apps/browser-api.ts), so it is the visitor's
 * own: their route, their arms, or the route a marketer previews. One exception: a page opened with
 * `skip_split=true` (SPEC.md §4) shows every running experiment's control, and the API call carries no
 * query of its own; its page (the same-origin `Referer`) says so, and the offer is the
 * controls'. That buys nothing the visitor could not see by adding the parameter themselves.
 */
function shownShape(
  visitor: VisitorExperiments,
  flow: ActiveFlow,
  config: FunnelConfig,
  skipSplit: boolean,
): FunnelShape {
  if (!skipSplit) return { ...visitor.shape, screens: flow.screens };
  const { split, flows, routing, experiments: document } = config;
  const compiled = compiledExperiments(document, split, routing, config.content);
  return shapeOf(compiled, visitor.base, atControls(compiled, visitor.assignments), flows);
}

/** Whether the paying page (`referer`, same origin as `requestUrl` only) said `skip_split=true`. */
function skipsSplit(referer: string | undefined, requestUrl: string): boolean {
  if (!referer) return false;
  try {
    const page = new URL(referer);
    return page.origin === new URL(requestUrl).origin && linkSkipsSplit(page);
  } catch {
    return false;
  }
}

/**
 * What the offer is judged by: the visit as the route and experiments middleware left it, the
 * paying page (`Referer`) and the request's URL, and where the account's main purchase is kept
 * (its request id names the refusal's log line).
 */
export interface OfferAsker {
  experiments: VisitorExperiments;
  flow: ActiveFlow;
  config: FunnelConfig;
  country: string | null;
  routeId: string;
  referer: string | undefined;
  requestUrl: string;
  mainPurchase: MainPurchaseKeeper;
  /**
   * The visitor's offer countdown reached zero (./offer-deadline.ts): the intro prices and the
   * coupon it named are sold no more, only the regular prices.
   */
  offerEnded: boolean;
}

/**
 * The offer is the contract: a charge call (`:planId` and its coupon) is forwarded only for a
 * plan the visitor's screens offer, with exactly the coupon they show it with
 * (./offer.ts), and an upsell only once the signed-in account bought a main plan
 * (./main-purchase.ts). Null lets it through; a refusal is logged as a warning with what was
 * asked. Checked before the product API is called, so nothing else is ever charged.
 */
export async function offerRefusal(
  asker: OfferAsker,
  planId: string,
  coupon: string | null | undefined,
): Promise<ApiRefusal | null> {
  const shape = shownShape(
    asker.experiments,
    asker.flow,
    asker.config,
    skipsSplit(asker.referer, asker.requestUrl),
  );
  const offer = offerOf({
    screens: screensInCode(asker.config.content, shape.screens),
    chosen: shape,
    currency: visitorCurrency(asker.config.routing, shape, asker.country),
    ended: asker.offerEnded,
  });
  const verdict = checkOrder(offer, planId, coupon);
  const refused = (code: 'plan_not_offered' | 'coupon_not_offered' | 'main_purchase_required') => {
    logWarning(code, {
      id: asker.mainPurchase.requestId,
      plan: planId.slice(0, 80),
      coupon: coupon ? coupon.slice(0, 80) : null,
      route: asker.routeId,
      flow: asker.flow.name,
      offerEnded: asker.offerEnded,
      // What the visitor's screens did offer, so a refusal says what was asked against what
      // was shown (a currency the country changed, a plan of another arm).
      country: asker.country,
      offered: offer
        .slice(0, 12)
        .map((item) => (item.coupon ? `${item.planId}+${item.coupon}` : item.planId))
        .join(' '),
    });
    return refusal(code);
  };
  if (!verdict.ok) return refused(verdict.code);
  if (!verdict.afterMain) return null;
  const holds = await holdsMainPurchase(asker.mainPurchase);
  if (holds === null) return refusal('internal_error');
  return holds ? null : refused('main_purchase_required');
}
