import { describe, expect, it } from 'vitest';
import { audienceCountries } from '../../../shared/audience-countries';
import type { Condition } from '../../../shared/config/routing';
import { compileRouting } from '../../../worker/routing/router';

/**
 * The countries an audience requires of every visitor (shared/audience-countries.ts), which the
 * console's "Kept to DE" notice and the router's kept routes both read.
 */

const country = (...values: string[]): Condition => ({
  attribute: 'country',
  operator: 'in',
  values,
});
const tiktok: Condition = { attribute: 'source', operator: 'in', values: ['tiktok'] };

describe('the countries an audience requires', () => {
  it('are every group’s, each group’s the countries all its country conditions name', () => {
    expect(audienceCountries([[tiktok, country('DE', 'AT')], [country('CH')]])).toEqual([
      'AT',
      'CH',
      'DE',
    ]);
    expect(audienceCountries([[country('DE', 'AT'), country('AT', 'CH')]])).toEqual(['AT']);
  });

  it('are none as soon as one group requires no country: a link alone meets that group', () => {
    expect(audienceCountries([[tiktok, country('DE')], [tiktok]])).toBeNull();
    expect(audienceCountries([])).toBeNull();
  });
});

describe('a kept route', () => {
  const routing = compileRouting({
    version: 'test',
    audiences: {
      dach: { groups: [[tiktok, country('DE', 'AT', 'CH')]] },
      tiktok: { groups: [[tiktok]] },
    },
    routes: [
      { id: 'dach', audience: 'dach', flow: 'default' },
      { id: 'tiktok', audience: 'tiktok', flow: 'default' },
      { id: 'default', flow: 'default' },
    ],
  });

  it('holds in the countries its audience requires, and only there', () => {
    expect(routing.holdsIn('dach', 'AT')).toBe(true);
    expect(routing.holdsIn('dach', 'de')).toBe(true);
    expect(routing.holdsIn('dach', 'US')).toBe(false);
    expect(routing.holdsIn('dach', null)).toBe(false);
  });

  it('holds anywhere when its audience requires no country', () => {
    expect(routing.holdsIn('tiktok', 'US')).toBe(true);
    expect(routing.holdsIn('default', null)).toBe(true);
  });
});
