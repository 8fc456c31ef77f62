import { describe, expect, it } from 'vitest';
import { audiencesDisjoint, rangesOverlap } from '../../../../shared/audiences-overlap';
import type { ExperimentAudience } from '../../../../shared/config/experiments';
import type { Condition } from '../../../../shared/config/routing';
import { ROUTING } from './config-fixtures';

/**
 * Two experiments may share a layer's buckets, or change the same slot from two layers, only
 * when no visitor can be in both audiences. audiencesDisjoint says so only with a proof.
 */

const is = (attribute: Condition['attribute'], ...values: (string | number)[]): Condition => ({
  attribute,
  operator: 'in',
  values,
});
const isNot = (attribute: Condition['attribute'], ...values: (string | number)[]): Condition => ({
  attribute,
  operator: 'not_in',
  values,
});

const disjoint = (a: ExperimentAudience, b: ExperimentAudience) => {
  const answer = audiencesDisjoint(a, b, ROUTING);
  // The question has no direction.
  expect(audiencesDisjoint(b, a, ROUTING)).toBe(answer);
  return answer;
};

describe('routes', () => {
  it('audiences naming no route in common never meet: a visitor walks one route', () => {
    expect(disjoint({ routes: ['meta-us'] }, { routes: ['tt-dach', 'default'] })).toBe(true);
  });

  it('one route in common is enough to meet', () => {
    expect(disjoint({ routes: ['meta-us', 'default'] }, { routes: ['default'] })).toBe(false);
  });

  it('no routes named means every route, which meets any route', () => {
    expect(disjoint({}, { routes: ['meta-us'] })).toBe(false);
    expect(disjoint({}, {})).toBe(false);
  });
});

describe('conditions', () => {
  it('country lists sharing no value never meet', () => {
    expect(disjoint({ groups: [[is('country', 'US')]] }, { groups: [[is('country', 'DE')]] })).toBe(
      true,
    );
  });

  it('country lists sharing a value meet', () => {
    expect(
      disjoint({ groups: [[is('country', 'US', 'CA')]] }, { groups: [[is('country', 'CA')]] }),
    ).toBe(false);
  });

  it('conditions on two different attributes can both hold', () => {
    expect(
      disjoint({ groups: [[is('country', 'US')]] }, { groups: [[is('source', 'meta')]] }),
    ).toBe(false);
  });

  it('a saved audience counts like the groups it holds', () => {
    expect(disjoint({ audience: 'us' }, { audience: 'dach' })).toBe(true);
    expect(disjoint({ audience: 'us' }, { groups: [[is('country', 'DE', 'AT')]] })).toBe(true);
    expect(disjoint({ audience: 'us' }, { audience: 'meta_us' })).toBe(false);
  });

  it('a saved audience and groups both apply: either can make them apart', () => {
    // Everyone in the DACH audience, but only on Meta: apart from anyone not from Meta.
    const dachMeta: ExperimentAudience = { audience: 'dach', groups: [[is('source', 'meta')]] };
    expect(disjoint(dachMeta, { groups: [[is('source', 'tiktok')]] })).toBe(true);
    expect(disjoint(dachMeta, { audience: 'us' })).toBe(true);
    expect(disjoint(dachMeta, { audience: 'tiktok_dach' })).toBe(true);
    expect(disjoint(dachMeta, { groups: [[is('country', 'AT')]] })).toBe(false);
  });

  it('every group of one against every group of the other must be apart', () => {
    const usOrDach: ExperimentAudience = {
      groups: [[is('country', 'US')], [is('country', 'DE', 'AT', 'CH')]],
    };
    expect(disjoint(usOrDach, { groups: [[is('country', 'FR')], [is('country', 'GB')]] })).toBe(
      true,
    );
    // FR is apart, but CH meets the second group.
    expect(disjoint(usOrDach, { groups: [[is('country', 'FR')], [is('country', 'CH')]] })).toBe(
      false,
    );
  });

  it('a group apart on any one attribute is apart, whatever else it asks', () => {
    expect(
      disjoint(
        { groups: [[is('source', 'meta'), is('country', 'US')]] },
        { groups: [[is('source', 'meta'), is('country', 'DE')]] },
      ),
    ).toBe(true);
  });

  it('not_in excludes what an in list allows', () => {
    expect(
      disjoint(
        { groups: [[is('country', 'US', 'CA')]] },
        { groups: [[isNot('country', 'US', 'CA')]] },
      ),
    ).toBe(true);
    expect(
      disjoint({ groups: [[is('country', 'US', 'CA')]] }, { groups: [[isNot('country', 'US')]] }),
    ).toBe(false);
    // Two exclusions alone can both hold (a visitor from FR).
    expect(
      disjoint({ groups: [[isNot('country', 'US')]] }, { groups: [[isNot('country', 'DE')]] }),
    ).toBe(false);
  });

  it('campaign texts compare ignoring case, as the router reads them', () => {
    expect(
      disjoint(
        { groups: [[{ attribute: 'utm_campaign', operator: 'equals', values: ['BF24'] }]] },
        { groups: [[is('utm_campaign', 'bf24')]] },
      ),
    ).toBe(false);
    expect(
      disjoint(
        { groups: [[{ attribute: 'utm_campaign', operator: 'equals', values: ['bf24'] }]] },
        { groups: [[is('utm_campaign', 'cm24')]] },
      ),
    ).toBe(true);
  });

  it('a text matched by part proves nothing: "bf" and "24" can be in one campaign', () => {
    expect(
      disjoint(
        { groups: [[{ attribute: 'utm_campaign', operator: 'contains', values: ['bf'] }]] },
        { groups: [[{ attribute: 'utm_campaign', operator: 'contains', values: ['24'] }]] },
      ),
    ).toBe(false);
  });

  it('what changes between two pages of one visitor proves nothing', () => {
    // A visitor seen on an iPhone can come back on the desktop through a resume link, at another
    // hour, in another browser, and returning: they keep a variant they were exposed to.
    expect(disjoint({ audience: 'iphones' }, { audience: 'android' })).toBe(false);
    expect(disjoint({ groups: [[is('hour', 9)]] }, { groups: [[is('hour', 10)]] })).toBe(false);
    expect(
      disjoint({ groups: [[is('in_app', 'instagram')]] }, { groups: [[is('in_app', 'none')]] }),
    ).toBe(false);
    expect(
      disjoint({ groups: [[is('visitor', 'new')]] }, { groups: [[is('visitor', 'returning')]] }),
    ).toBe(false);
    expect(disjoint({ groups: [[is('visit_days', 0)]] }, { groups: [[is('visit_days', 1)]] })).toBe(
      false,
    );
  });

  it('an audience the routing lacks proves nothing', () => {
    expect(disjoint({ audience: 'gone' }, { audience: 'us' })).toBe(false);
  });

  it('too many combinations to compare are called overlapping', () => {
    const countries = ['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'FR', 'BE', 'NL', 'LU'];
    const many: ExperimentAudience = {
      groups: Array.from({ length: 20 }, (_, i) => [is('country', countries[i % 10]!)]),
    };
    const others: ExperimentAudience = {
      groups: Array.from({ length: 20 }, (_, i) => [
        is('source', i % 2 ? 'meta' : 'tiktok'),
        is('country', 'DE'),
      ]),
    };
    // 400 pairs, each apart: proven.
    expect(disjoint(many, others)).toBe(true);
    const routing = {
      audiences: {
        wide: { groups: Array.from({ length: 20 }, () => [is('country', 'JP')]) },
      },
    };
    // 20 × 20 combinations on each side: 160 000 pairs, more than it compares, so it answers
    // false, though each pair is apart (JP is no other country).
    expect(
      audiencesDisjoint({ ...many, audience: 'wide' }, { ...others, audience: 'wide' }, routing),
    ).toBe(false);
  });
});

describe('ranges of a layer', () => {
  it.each<[[number, number], [number, number], boolean]>([
    [[0, 0.5], [0.5, 1], false],
    [[0, 0.5], [0.4, 1], true],
    [[0, 1], [0.2, 0.3], true],
    [[0.1, 0.2], [0.3, 0.4], false],
  ])('%j and %j overlap: %s', (a, b, overlap) => {
    expect(rangesOverlap(a, b)).toBe(overlap);
    expect(rangesOverlap(b, a)).toBe(overlap);
  });
});
