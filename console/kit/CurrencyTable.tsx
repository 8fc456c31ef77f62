import { useState } from 'react';
import {
  type CountryCurrencies,
  CURRENCIES,
  type Currency,
  currencyForCountry,
} from '../../shared/plans/currency';
import { countryLabel, valueChoices } from './route-choices';
import { nameOptions, SelectField } from './SelectField';

/**
 * A country→currency table as the traffic editor edits it (docs/marketers.md, "Currencies by
 * country"): the countries it changes, each with the currency its visitors pay in and a button
 * to take it out, and a row to add one. Each table goes on top of the one before (`over`: the
 * built-in one, then the document's for a route), so a row says what the country paid before.
 * An emptied table is taken out of the draft (undefined), not kept as `{}`.
 */
export function CurrencyTable({
  id,
  legend,
  table,
  over,
  onChange,
}: {
  id: string;
  /** What the fieldset is called: whose table it is ("Currencies of route tiktok"). */
  legend: string;
  table: CountryCurrencies | undefined;
  /** The table it goes on top of, for "otherwise …". */
  over: CountryCurrencies;
  onChange(table: CountryCurrencies | undefined): void;
}) {
  const rows = Object.entries(table ?? {}).sort(([a], [b]) => a.localeCompare(b));

  function change(next: Record<string, Currency>) {
    onChange(Object.keys(next).length > 0 ? next : undefined);
  }

  return (
    <fieldset className="currency-table">
      <legend>{legend}</legend>
      {rows.length === 0 ? (
        <p className="muted">No country changed here: each pays as the table before says.</p>
      ) : (
        <div>
          {rows.map(([code, paid]) => (
            <div key={code} className="row__fields">
              <CurrencySelect
                id={`${id}-${code}`}
                label={`${countryLabel(code)} pays in (otherwise ${currencyForCountry(code, over)})`}
                value={paid}
                onChange={(currency) => change({ ...table, [code]: currency })}
              />
              <div className="field field--action">
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`Remove ${countryLabel(code)}`}
                  onClick={() => {
                    const { [code]: _removed, ...rest } = table ?? {};
                    change(rest);
                  }}
                >
                  Remove
                </button>
              </div>
            </div>
          ))}
        </div>
      )}
      <AddCountry
        id={id}
        listed={new Set(rows.map(([code]) => code))}
        onAdd={(country, currency) => change({ ...table, [country]: currency })}
      />
    </fieldset>
  );
}

/** A country the table does not list yet, and the currency it is to pay in. */
function AddCountry({
  id,
  listed,
  onAdd,
}: {
  id: string;
  listed: ReadonlySet<string>;
  onAdd(country: string, currency: Currency): void;
}) {
  const [country, setCountry] = useState('');
  const [currency, setCurrency] = useState<Currency>(CURRENCIES[0]);
  const addable = valueChoices('country').filter((choice) => !listed.has(String(choice.value)));
  return (
    <div className="row__fields">
      <SelectField id={`${id}-new-country`} label="Country" value={country} onChange={setCountry}>
        <option value="">Choose a country</option>
        {addable.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </SelectField>
      <CurrencySelect
        id={`${id}-new-currency`}
        label="Pays in"
        value={currency}
        onChange={setCurrency}
      />
      <div className="field field--action">
        <button
          type="button"
          className="button button--small"
          disabled={country === ''}
          onClick={() => {
            onAdd(country, currency);
            setCountry('');
          }}
        >
          Add country
        </button>
      </div>
    </div>
  );
}

/** One of the catalogue's currencies, the only ones a country may be sent to pay in. */
function CurrencySelect(props: {
  id: string;
  label: string;
  value: Currency;
  onChange(currency: Currency): void;
}) {
  return (
    <SelectField
      id={props.id}
      label={props.label}
      value={props.value}
      onChange={(value) => props.onChange(value as Currency)}
    >
      {nameOptions(CURRENCIES)}
    </SelectField>
  );
}
