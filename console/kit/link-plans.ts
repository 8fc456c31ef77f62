import { groupCountries } from '../../shared/audience-countries';
import type { RouteDocument, RoutingDocument } from '../../shared/config/routing';
import { PLAN_FIELD_NAMES } from '../../shared/plans/screen-offers';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { takesLinkValue } from './routing-edits';

/**
 * Which routes give plans of their own to whoever opens a link (docs/routes.md, "Prices and
 * links anyone can type"): the route card says it while the marketer picks plans, and the
 * review says it again, route by route, before the publish. Pure, from the routing alone.
 *
 * A route is named when its plans (main, upsell or guide) differ from the default route's and one of its audience's
 * groups asks the link for a value (source, UTM tag, entry alias, click id): link parameters are
 * typed, not verified, and a link is passed on beyond its ad. A group that also requires a
 * country is safer (the country comes from the visitor's IP address), and the notice says so;
 * an audience that reads only what a visitor cannot type (country, platform, hour…) is not named.
 */

/** The sentence the route card shows, and the review repeats, for a route with plans of its own. */
export const LINK_PLANS_WARNING = 'Anyone who opens this link gets these plans.';

/** The same for a route that sets none: it gives away the screens' own, where default sets some. */
const OWN_SCREEN_PLANS_WARNING =
  'Anyone who opens this link gets the screens’ own plans, not route default’s.';

export interface LinkPlanNotice {
  route: string;
  /** The route's plans, or null: each screen's own (the default route sets some). */
  plans: readonly string[] | null;
  /** Whether the route sets plans of its own (main, upsell or guide). */
  ownPlans: boolean;
  /**
   * The countries every group the link can meet also requires, or null when some such group
   * requires none: then a link alone is enough, anywhere.
   */
  countries: readonly string[] | null;
}

/** The same main, upsell and guide plans: a route setting any of them differently gives them away. */
const samePlans = (a: RouteDocument, b: RouteDocument | undefined) =>
  PLAN_FIELD_NAMES.every(
    (field) => JSON.stringify(a[field] ?? null) === JSON.stringify(b?.[field] ?? null),
  );

/** What the route's link gives away, or null when nothing: see above. */
export function linkPlanNotice(
  route: RouteDocument,
  routing: Pick<RoutingDocument, 'audiences' | 'routes'>,
): LinkPlanNotice | null {
  if (route.id === DEFAULT_ROUTE_ID || route.audience === undefined) return null;
  const fallback = routing.routes.find((each) => each.id === DEFAULT_ROUTE_ID);
  if (samePlans(route, fallback)) return null;
  const audience = routing.audiences[route.audience];
  const typed = audience?.groups.filter((group) => group.some(takesLinkValue)) ?? [];
  if (typed.length === 0) return null;
  const perGroup = typed.map(groupCountries);
  const countries = perGroup.every((codes) => codes !== null)
    ? [...new Set(perGroup.flat())].sort()
    : null;
  const ownPlans = PLAN_FIELD_NAMES.some((field) => route[field] !== undefined);
  return { route: route.id, plans: route.plans ?? null, ownPlans, countries };
}

/** Every route of the routing its link gives plans to, in order. */
export function linkPlanNotices(
  routing: Pick<RoutingDocument, 'audiences' | 'routes'>,
): LinkPlanNotice[] {
  return routing.routes.flatMap((route) => linkPlanNotice(route, routing) ?? []);
}

/** "DE", "DE or AT", "DE, AT or CH". */
function either(codes: readonly string[]): string {
  return codes.length <= 1
    ? codes.join('')
    : `${codes.slice(0, -1).join(', ')} or ${codes[codes.length - 1]}`;
}

/** What the notice adds to the warning: how far the country keeps the plans, or that nothing does. */
export function countryText(notice: LinkPlanNotice): string {
  if (notice.countries === null) {
    return 'A link alone is enough, from anywhere: require a country in the audience too to keep the plans where you buy the ads.';
  }
  if (notice.countries.length === 0) {
    return 'Its audience also requires a country, but no country meets all of its conditions.';
  }
  return `Kept to ${either(notice.countries)}: its audience also requires the country, which comes from the visitor’s IP address, not from the link (a VPN can still change it).`;
}

/** What the link gives away: the route's own plans, or the screens' own where it sets none. */
export function warningText(notice: LinkPlanNotice): string {
  return notice.ownPlans ? LINK_PLANS_WARNING : OWN_SCREEN_PLANS_WARNING;
}

/** The review's line for one route. */
export function reviewText(notice: LinkPlanNotice): string {
  const plans = notice.plans ? `plans ${notice.plans.join(', ')}` : 'each screen’s own plans';
  return `Route ${notice.route} (${plans}): ${warningText(notice)} Source, UTM tags, entry alias and click ids are typed into links, not verified. ${countryText(notice)}`;
}
