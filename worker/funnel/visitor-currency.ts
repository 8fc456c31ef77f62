import type { RoutingDocument } from '../../shared/config/routing';
import { type Currency, currencyForCountry, currencyTable } from '../../shared/plans/currency';
import type { PlanChoices } from '../../shared/plans/screen-offers';

/**
 * The currency a visitor pays in: their country (the CF-IPCountry header, worker/middleware/)
 * read in the built-in table with the routing config's `currencies` on top, then the route's and
 * their price test variants' (`shape.currencies`, merged in that order by
 * worker/experiments/config/funnel-shape.ts). The screens show prices in it and the offer gate
 * charges only plans in it, from the same call, so the two never disagree.
 */
export function visitorCurrency(
  routing: Pick<RoutingDocument, 'currencies'>,
  shape: Pick<PlanChoices, 'currencies'>,
  country: string | null,
): Currency {
  return currencyForCountry(country, currencyTable(routing.currencies, shape.currencies));
}
