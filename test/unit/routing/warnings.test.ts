import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Condition, RouteDocument, RoutingDocument } from '../../../shared/config/routing';
import { CLICK_ID_VALUES } from '../../../shared/routing';
import { visitorFacts } from '../../../worker/routing/attributes';
import { takeFirstTouch } from '../../../worker/routing/first-touch';
import { chooseRoute, compileRouting, type VisitorFacts } from '../../../worker/routing/router';
import { routingWarnings } from '../../../worker/routing/warnings';

/** A routing document: `narrow` below `broad`, each with one audience of one group. */
function shadowing(
  broad: Condition[],
  narrow: Condition[],
  options: { broad?: Partial<RouteDocument>; narrow?: Partial<RouteDocument> } = {},
): RoutingDocument {
  return {
    version: 't',
    audiences: { broad: { groups: [broad] }, narrow: { groups: [narrow] } },
    routes: [
      { id: 'broad', audience: 'broad', flow: 'default', ...options.broad },
      { id: 'narrow', audience: 'narrow', flow: 'default', ...options.narrow },
      { id: 'default', flow: 'default' },
    ],
  };
}

const caught = (routing: RoutingDocument) => routingWarnings(routing).map((w) => w.path);

describe('routes an earlier route catches whole', () => {
  it('names the route and the earlier one at routing.routes.<i>', () => {
    expect(
      routingWarnings(
        shadowing(
          [{ attribute: 'source', operator: 'in', values: ['tiktok'] }],
          [
            { attribute: 'source', operator: 'in', values: ['tiktok'] },
            { attribute: 'country', operator: 'in', values: ['DE'] },
          ],
        ),
      ),
    ).toEqual([
      {
        path: 'routing.routes.1',
        message:
          'never takes a visitor: route "broad" before it already takes everyone its audience "narrow" matches',
      },
    ]);
  });

  it('a second route on the same audience is caught', () => {
    const routing = shadowing([{ attribute: 'platform', operator: 'in', values: ['ios'] }], []);
    routing.routes[1]!.audience = 'broad';
    expect(caught(routing)).toEqual(['routing.routes.1']);
  });

  it.each<[string, Condition, Condition]>([
    [
      'in: a subset',
      { attribute: 'country', operator: 'in', values: ['DE', 'AT', 'CH'] },
      { attribute: 'country', operator: 'in', values: ['AT'] },
    ],
    [
      'not_in: a superset',
      { attribute: 'platform', operator: 'not_in', values: ['desktop'] },
      { attribute: 'platform', operator: 'not_in', values: ['desktop', 'other'] },
    ],
    [
      'not_in above in, none of the excluded values',
      { attribute: 'browser', operator: 'not_in', values: ['in_app'] },
      { attribute: 'browser', operator: 'in', values: ['safari', 'chrome'] },
    ],
    [
      'contains: a value holding the part, ignoring case',
      { attribute: 'utm_campaign', operator: 'contains', values: ['BF'] },
      { attribute: 'utm_campaign', operator: 'equals', values: ['winter_bf_24'] },
    ],
    [
      'contains: a longer part',
      { attribute: 'utm_campaign', operator: 'contains', values: ['bf'] },
      { attribute: 'utm_campaign', operator: 'contains', values: ['bf24'] },
    ],
    [
      'contains above starts_with',
      { attribute: 'utm_campaign', operator: 'contains', values: ['bf'] },
      { attribute: 'utm_campaign', operator: 'starts_with', values: ['xbf'] },
    ],
    [
      'starts_with: a value with the prefix',
      { attribute: 'utm_source', operator: 'starts_with', values: ['tik'] },
      { attribute: 'utm_source', operator: 'in', values: ['tiktok', 'TikTok_ads'] },
    ],
    [
      'starts_with: a longer prefix',
      { attribute: 'entry', operator: 'starts_with', values: ['bf'] },
      { attribute: 'entry', operator: 'starts_with', values: ['bf24'] },
    ],
    [
      'not_in above contains, no excluded value holds the part',
      { attribute: 'utm_medium', operator: 'not_in', values: ['email'] },
      { attribute: 'utm_medium', operator: 'contains', values: ['paid'] },
    ],
    [
      'hours',
      { attribute: 'hour', operator: 'in', values: [20, 21, 22, 23] },
      { attribute: 'hour', operator: 'in', values: [22] },
    ],
  ])('%s', (_, broad, narrow) => {
    expect(caught(shadowing([broad], [narrow]))).toEqual(['routing.routes.1']);
  });

  it.each<[string, Condition, Condition]>([
    [
      'in: not a subset',
      { attribute: 'country', operator: 'in', values: ['DE'] },
      { attribute: 'country', operator: 'in', values: ['DE', 'AT'] },
    ],
    [
      'not_in: not a superset',
      { attribute: 'platform', operator: 'not_in', values: ['desktop', 'other'] },
      { attribute: 'platform', operator: 'not_in', values: ['desktop'] },
    ],
    [
      'not_in above in, an excluded value',
      { attribute: 'browser', operator: 'not_in', values: ['in_app'] },
      { attribute: 'browser', operator: 'in', values: ['safari', 'in_app'] },
    ],
    [
      'contains: a value without the part',
      { attribute: 'utm_campaign', operator: 'contains', values: ['bf'] },
      { attribute: 'utm_campaign', operator: 'equals', values: ['winter'] },
    ],
    [
      'starts_with above contains',
      { attribute: 'utm_campaign', operator: 'starts_with', values: ['bf'] },
      { attribute: 'utm_campaign', operator: 'contains', values: ['bf'] },
    ],
    [
      'in above not_in',
      { attribute: 'platform', operator: 'in', values: ['ios', 'android', 'other'] },
      { attribute: 'platform', operator: 'not_in', values: ['desktop'] },
    ],
    [
      'not_in above contains, an excluded value holds the part',
      { attribute: 'utm_medium', operator: 'not_in', values: ['paid_social'] },
      { attribute: 'utm_medium', operator: 'contains', values: ['paid'] },
    ],
    [
      'another attribute',
      { attribute: 'utm_source', operator: 'in', values: ['tiktok'] },
      { attribute: 'utm_medium', operator: 'in', values: ['tiktok'] },
    ],
  ])('not caught, %s', (_, broad, narrow) => {
    expect(caught(shadowing([broad], [narrow]))).toEqual([]);
  });

  it('every group of the later audience must be caught by some group of the earlier one', () => {
    const tiktok: Condition = { attribute: 'source', operator: 'in', values: ['tiktok'] };
    const meta: Condition = { attribute: 'source', operator: 'in', values: ['meta'] };
    const de: Condition = { attribute: 'country', operator: 'in', values: ['DE'] };
    const routing = shadowing([tiktok], [tiktok, de]);
    routing.audiences.broad = { groups: [[tiktok], [meta]] };
    routing.audiences.narrow = { groups: [[tiktok, de], [meta]] };
    expect(caught(routing)).toEqual(['routing.routes.1']);
    routing.audiences.narrow = { groups: [[tiktok, de], [de]] };
    expect(caught(routing)).toEqual([]);
  });

  it('an earlier route that is paused or open for less time catches nothing', () => {
    const ios: Condition = { attribute: 'platform', operator: 'in', values: ['ios'] };
    expect(caught(shadowing([ios], [ios], { broad: { paused: true } }))).toEqual([]);
    const week = { from: '2026-11-23T00:00Z', until: '2026-11-30T00:00Z' };
    expect(caught(shadowing([ios], [ios], { broad: { schedule: week } }))).toEqual([]);
    expect(
      caught(shadowing([ios], [ios], { broad: { schedule: week }, narrow: { schedule: week } })),
    ).toEqual(['routing.routes.1']);
    expect(
      caught(
        shadowing([ios], [ios], {
          broad: { schedule: { until: '2026-12-01T00:00Z' } },
          narrow: { schedule: { from: '2026-11-27T00:00Z', until: '2026-11-28T00:00Z' } },
        }),
      ),
    ).toEqual(['routing.routes.1']);
    expect(
      caught(
        shadowing([ios], [ios], {
          broad: { schedule: { from: '2026-11-27T00:00Z' } },
          narrow: { schedule: { until: '2026-11-28T00:00Z' } },
        }),
      ),
    ).toEqual([]);
  });

  it('a later route never catches an earlier one, and the default route is never named', () => {
    const ios: Condition = { attribute: 'platform', operator: 'in', values: ['ios'] };
    const de: Condition = { attribute: 'country', operator: 'in', values: ['DE'] };
    expect(caught(shadowing([ios, de], [ios]))).toEqual([]);
  });
});

/**
 * Two audiences for the routes "broad" then "narrow". Half the time the second is the first with a
 * condition added to some of its groups, which the first always catches; so every run has many
 * warnings to prove, rather than the few that two independent draws happen to give.
 */
function audiencePairs(
  condition: fc.Arbitrary<Condition>,
): fc.Arbitrary<[Condition[][], Condition[][]]> {
  const groups = fc.array(fc.array(condition, { minLength: 1, maxLength: 2 }), {
    minLength: 1,
    maxLength: 2,
  });
  return groups.chain((a) =>
    fc.tuple(
      fc.constant(a),
      fc.oneof(
        groups,
        fc.tuple(
          ...a.map((group) =>
            fc.array(condition, { maxLength: 1 }).map((extra) => [...group, ...extra]),
          ),
        ),
      ),
    ),
  );
}

describe('a warning is never wrong', () => {
  // A small world, so that one audience often holds another and the proof is put to work.
  const CAMPAIGNS = ['bf', 'bf24', 'xbf', 'BF24_de', 'cyber'];
  const condition: fc.Arbitrary<Condition> = fc.oneof(
    fc.record({
      attribute: fc.constant('platform' as const),
      operator: fc.constantFrom('in' as const, 'not_in' as const),
      values: fc.subarray(['ios', 'android', 'desktop', 'other'], { minLength: 1 }),
    }),
    fc.record({
      attribute: fc.constant('hour' as const),
      operator: fc.constantFrom('in' as const, 'not_in' as const),
      values: fc.subarray([0, 1, 2], { minLength: 1 }),
    }),
    fc.record({
      attribute: fc.constant('utm_campaign' as const),
      operator: fc.constantFrom(
        'in' as const,
        'not_in' as const,
        'equals' as const,
        'contains' as const,
        'starts_with' as const,
      ),
      values: fc.subarray(CAMPAIGNS, { minLength: 1, maxLength: 2 }),
    }),
  );
  const visitor = fc.record({
    platform: fc.constantFrom('ios', 'android', 'desktop', 'other'),
    hour: fc.constantFrom(0, 1, 2, 3),
    utm_campaign: fc.constantFrom(null, ...CAMPAIGNS, 'BF', 'bf24x', 'abf24', 'winter'),
  });

  it('no visitor reaches a route said to be caught by an earlier one', () => {
    let warned = 0;
    fc.assert(
      fc.property(
        audiencePairs(condition),
        fc.array(visitor, { minLength: 40, maxLength: 40 }),
        ([a, b], visitors) => {
          const routing: RoutingDocument = {
            version: 't',
            audiences: { broad: { groups: a }, narrow: { groups: b } },
            routes: [
              { id: 'broad', audience: 'broad', flow: 'default' },
              { id: 'narrow', audience: 'narrow', flow: 'default' },
              { id: 'default', flow: 'default' },
            ],
          };
          if (routingWarnings(routing).length === 0) return;
          warned++;
          const compiled = compileRouting(routing);
          for (const facts of visitors) {
            const chosen = chooseRoute(
              compiled,
              {
                get: (attribute) =>
                  (facts as Record<string, string | number | null>)[attribute] ?? null,
              },
              0,
            );
            expect(chosen.id).not.toBe('narrow');
          }
        },
      ),
      { numRuns: 400 },
    );
    // The property says nothing unless warnings were given.
    expect(warned).toBeGreaterThan(100);
  });
});

describe('click ids and the source they make', () => {
  const source = (values: string[], operator: 'in' | 'not_in' = 'in'): Condition => ({
    attribute: 'source',
    operator,
    values,
  });
  const clickId = (values: string[], operator: 'in' | 'not_in' = 'in'): Condition => ({
    attribute: 'click_id',
    operator,
    values,
  });

  it('a route on TikTok clicks below one on the TikTok source is caught: the source takes them all', () => {
    expect(caught(shadowing([source(['tiktok'])], [clickId(['tiktok'])]))).toEqual([
      'routing.routes.1',
    ]);
    expect(caught(shadowing([source(['tiktok', 'meta'])], [clickId(['meta'])]))).toEqual([
      'routing.routes.1',
    ]);
    expect(
      caught(shadowing([source(['direct'], 'not_in')], [clickId(['none'], 'not_in')])),
    ).toEqual(['routing.routes.1']);
  });

  it('is not caught where the click id leaves the source open', () => {
    // The other way round: a typed ?utm_source=tiktok reaches the route below.
    expect(caught(shadowing([clickId(['tiktok'])], [source(['tiktok'])]))).toEqual([]);
    // No click id: the source is utm_source's or the referrer's.
    expect(caught(shadowing([source(['direct'])], [clickId(['none'])]))).toEqual([]);
    expect(caught(shadowing([source(['tiktok'])], [clickId(['tiktok', 'none'])]))).toEqual([]);
    expect(caught(shadowing([source(['tiktok'])], [clickId(['meta'], 'not_in')]))).toEqual([]);
    expect(caught(shadowing([source(['tiktok'])], [clickId(['google'])]))).toEqual([]);
  });
});

describe('a warning is never wrong, with click ids (visitors from real links)', () => {
  const SOURCE_VALUES = ['meta', 'tiktok', 'google', 'other', 'direct', 'referral'];
  const condition: fc.Arbitrary<Condition> = fc.oneof(
    fc.record({
      attribute: fc.constant('source' as const),
      operator: fc.constantFrom('in' as const, 'not_in' as const),
      values: fc.subarray(SOURCE_VALUES, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      attribute: fc.constant('click_id' as const),
      operator: fc.constantFrom('in' as const, 'not_in' as const),
      values: fc.subarray([...CLICK_ID_VALUES], { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      attribute: fc.constant('utm_source' as const),
      operator: fc.constantFrom('equals' as const, 'not_in' as const, 'starts_with' as const),
      values: fc.subarray(['tiktok', 'fb', 'tik'], { minLength: 1, maxLength: 2 }),
    }),
  );
  /** A visitor as the edge reads them: a link's parameters and a referrer, through its code. */
  const visitor = fc
    .record({
      fbclid: fc.boolean(),
      ttclid: fc.boolean(),
      google: fc.constantFrom(null, 'gclid', 'gbraid', 'wbraid'),
      utm_source: fc.constantFrom(null, 'tiktok', 'fb', 'TikTok', 'newsletter'),
      referrer: fc.constantFrom(null, 'https://www.google.com/', 'https://blog.example/'),
    })
    .map((link): VisitorFacts => {
      const query = [
        link.fbclid ? 'fbclid=IwAR0' : '',
        link.ttclid ? 'ttclid=E.C.P.x' : '',
        link.google ? `${link.google}=Cj0` : '',
        link.utm_source ? `utm_source=${link.utm_source}` : '',
      ]
        .filter(Boolean)
        .join('&');
      const now = Date.UTC(2026, 10, 25);
      return visitorFacts({
        firstTouch: takeFirstTouch({
          url: new URL(`https://funnel.test/?${query}`),
          referrer: link.referrer,
          country: 'DE',
          now,
        }),
        language: 'en',
        userAgent: undefined,
        platformHint: undefined,
        inApp: null,
        returning: false,
        timeZone: null,
        now,
      });
    });

  it('no visitor reaches a route said to be caught by an earlier one', () => {
    let warned = 0;
    fc.assert(
      fc.property(
        audiencePairs(condition),
        fc.array(visitor, { minLength: 40, maxLength: 40 }),
        ([a, b], visitors) => {
          const routing: RoutingDocument = {
            version: 't',
            audiences: { broad: { groups: a }, narrow: { groups: b } },
            routes: [
              { id: 'broad', audience: 'broad', flow: 'default' },
              { id: 'narrow', audience: 'narrow', flow: 'default' },
              { id: 'default', flow: 'default' },
            ],
          };
          if (routingWarnings(routing).length === 0) return;
          warned++;
          const compiled = compileRouting(routing);
          for (const facts of visitors)
            expect(chooseRoute(compiled, facts, 0).id).not.toBe('narrow');
        },
      ),
      { numRuns: 600 },
    );
    expect(warned).toBeGreaterThan(150);
  });
});
