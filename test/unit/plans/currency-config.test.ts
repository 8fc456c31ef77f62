import { describe, expect, it } from 'vitest';
import { parseExperiments } from '../../../shared/config/experiments';
import { parseRouting } from '../../../shared/config/routing';
import { currencyForCountry, currencyTable } from '../../../shared/plans/currency';
import { taxNoteFor } from '../../../shared/plans/tax-display';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import { isPriceTest } from '../../../worker/experiments/design/experiment-design';
import { applyChange } from '../../../worker/funnel/flow';

/** A routing document with `currencies` on the document and on its route. */
function routing(currencies: unknown, routeCurrencies?: unknown) {
  return parseRouting({
    version: 'v1',
    ...(currencies === undefined ? {} : { currencies }),
    audiences: {},
    routes: [
      {
        id: 'default',
        flow: 'default',
        ...(routeCurrencies === undefined ? {} : { currencies: routeCurrencies }),
      },
    ],
  });
}

const issuesOf = (result: ReturnType<typeof parseRouting>) =>
  result.ok ? [] : (result.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`);

describe('a marketer’s country→currency table', () => {
  it('is optional: without one, the built-in table applies', () => {
    const parsed = routing(undefined);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.currencies).toBeUndefined();
    expect(currencyForCountry('GB', currencyTable(parsed.value.currencies))).toBe('GBP');
  });

  it('takes ISO countries and the catalogue’s currencies', () => {
    const parsed = routing({ NO: 'EUR', GB: 'USD' }, { JP: 'USD' });
    expect(parsed.ok).toBe(true);
  });

  it('refuses an unknown country and an unknown currency, naming where', () => {
    expect(issuesOf(routing({ UK: 'GBP' }))).toEqual([
      'currencies.UK: "UK" is not a country code: use ISO 3166-1 alpha-2, upper case (GB, not UK or gb)',
    ]);
    const [issue] = issuesOf(routing(undefined, { GB: 'NOK' }));
    expect(issue).toMatch(
      /^routes\.0\.currencies\.GB: "NOK" is not a currency the catalogue sells in \(USD, EUR, GBP/,
    );
    expect(issuesOf(routing({ gb: 'GBP' }))[0]).toMatch(/^currencies\.gb: /);
  });

  it('is refused on a variant too, and accepted when right', () => {
    const experiment = (currencies: unknown) =>
      parseExperiments({
        version: 'v1',
        experiments: {
          gb: {
            name: 'GB in dollars',
            hypothesis: 'Dollars sell as well as pounds in the UK.',
            status: 'draft',
            layer: 'paywall',
            audience: {},
            coverage: 1,
            seed: 'E-1',
            phase: 1,
            control: 'a',
            variants: {
              a: { weight: 1, change: {} },
              b: { weight: 1, change: { currencies } },
            },
            metrics: { primary: 'mature_revenue', plannedPerArm: 1000 },
          },
        },
      });
    expect(experiment({ GB: 'USD' }).ok).toBe(true);
    const refused = experiment({ GB: 'XYZ' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.issues?.[0]?.path).toBe('experiments.gb.variants.b.change.currencies.GB');
  });

  it('goes on top of the route’s: a variant changes only the countries it names', () => {
    const shape = {
      flow: 'default',
      screens: [],
      plans: null,
      upsellPlans: null,
      guidePlans: null,
      currencies: { GB: 'EUR', JP: 'USD' } as const,
    };
    const changed = applyChange(shape, { currencies: { GB: 'USD' } }, DEFAULT_FLOWS);
    expect(changed.currencies).toEqual({ GB: 'USD', JP: 'USD' });
    const table = currencyTable({ SE: 'EUR' }, changed.currencies);
    expect(currencyForCountry('GB', table)).toBe('USD');
    expect(currencyForCountry('SE', table)).toBe('EUR');
    expect(currencyForCountry('CA', table)).toBe('CAD');
  });

  it('makes a price test of variants that differ only in a country’s currency', () => {
    const variants = (b: Record<string, 'USD'>) => ({
      variants: { a: { weight: 1, change: {} }, b: { weight: 1, change: { currencies: b } } },
    });
    expect(isPriceTest(variants({ GB: 'USD' }))).toBe(true);
    expect(isPriceTest({ variants: { a: { weight: 1, change: {} } } })).toBe(false);
  });
});

describe('the tax note a shown price carries', () => {
  it.each([
    ['GB', 'vat'],
    ['DE', 'vat'],
    ['PL', 'vat'],
    ['CH', 'vat'],
    ['NO', 'vat'],
    ['TR', 'vat'],
    ['MX', 'vat'],
    ['AU', 'gst'],
    ['NZ', 'gst'],
    ['IN', 'gst'],
    ['JP', 'tax'],
    ['BR', 'tax'],
    ['gb', 'vat'],
  ])('%s: %s', (country, note) => {
    expect(taxNoteFor(country)).toBe(note);
  });

  it.each(['US', 'CA', 'AR', null, '', 'constructor'])('none for %s', (country) => {
    expect(taxNoteFor(country)).toBeNull();
  });
});
