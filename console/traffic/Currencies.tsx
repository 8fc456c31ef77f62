import type { RoutingDocument } from '../../shared/config/routing';
import { DEFAULT_COUNTRY_CURRENCIES } from '../../shared/plans/currency';
import { CurrencyTable } from '../kit/CurrencyTable';
import { setCurrencies } from '../kit/stores/draft';

/**
 * Who pays in what, for every route (the routing document's `currencies`, on top of the built-in
 * table); a route's own table, on its card, goes on top of this one.
 */
export function Currencies({ routing }: { routing: RoutingDocument }) {
  return (
    <div className="block">
      <h3>Currencies by country</h3>
      <p className="muted">
        Each plan has a local price in every currency, not converted at a rate. By default the euro
        area pays in EUR, the UK in GBP, Canada in CAD, Australia in AUD, Brazil in BRL, Mexico in
        MXN, India in INR, Japan in JPY, Poland in PLN, Türkiye in TRY, Switzerland and
        Liechtenstein in CHF, Sweden in SEK, and everyone else in USD. Change a country here for
        every route, or on a route’s card for its visitors.
      </p>
      <CurrencyTable
        id="currencies"
        legend="Currencies for every route"
        table={routing.currencies}
        over={DEFAULT_COUNTRY_CURRENCIES}
        onChange={setCurrencies}
      />
    </div>
  );
}
