import { describe, expect, it } from 'vitest';
import {
  localValueOf,
  metByLink,
  routeIdProblem,
  routesUsing,
  utcInstantOf,
  withAudience,
  withRouteAdded,
  withRouteFields,
  withRouteMoved,
  withRouteRemoved,
  withSplitRoutes,
} from '../../../console/kit/routing-edits';
import type { AudienceDocument } from '../../../shared/config/routing';
import { liveDocument } from './fixtures';

const TIKTOK: AudienceDocument = {
  groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]],
};

/** The live document with routes a, b above default, both taking TIKTOK. */
function routed() {
  let document = withAudience(liveDocument(), 'tiktok', TIKTOK);
  document = withRouteAdded(document, { id: 'a', audience: 'tiktok', flow: 'default' });
  return withRouteAdded(document, { id: 'b', audience: 'tiktok', flow: 'lp17ch17pr5' });
}

const order = (document: ReturnType<typeof routed>) =>
  document.routing.routes.map((route) => route.id);

describe('editing the routes', () => {
  it('adds a route just above default, which stays last', () => {
    expect(order(routed())).toEqual(['a', 'b', 'default']);
  });

  it('moves a route up and down, never past default, and leaves the original alone', () => {
    const document = routed();
    expect(order(withRouteMoved(document, 'b', -1))).toEqual(['b', 'a', 'default']);
    expect(withRouteMoved(document, 'b', 1)).toBe(document);
    expect(withRouteMoved(document, 'a', -1)).toBe(document);
    expect(withRouteMoved(document, 'default', -1)).toBe(document);
    expect(order(document)).toEqual(['a', 'b', 'default']);
  });

  it('sets fields, and takes out those set to undefined', () => {
    const paused = withRouteFields(routed(), 'a', {
      paused: true,
      schedule: { from: '2026-11-27T00:00Z' },
    });
    expect(paused.routing.routes[0]).toEqual({
      id: 'a',
      audience: 'tiktok',
      flow: 'default',
      paused: true,
      schedule: { from: '2026-11-27T00:00Z' },
    });
    const resumed = withRouteFields(paused, 'a', { paused: undefined, schedule: undefined });
    expect(resumed.routing.routes[0]).toEqual({ id: 'a', audience: 'tiktok', flow: 'default' });
  });

  it('says which routes take an audience', () => {
    expect(routesUsing(routed().routing, 'tiktok')).toEqual(['a', 'b']);
    expect(routesUsing(routed().routing, 'nobody')).toEqual([]);
  });

  it('refuses a route id that is taken or not a slug', () => {
    const { routing } = routed();
    expect(routeIdProblem('a', routing)).toBe('a is a route already.');
    expect(routeIdProblem('TikTok DE', routing)).toMatch(/lower-case/);
    expect(routeIdProblem('', routing)).toBe('Enter a name for the route.');
    expect(routeIdProblem('tiktok_de', routing)).toBeNull();
  });
});

describe('an audience a link can meet', () => {
  it.each<[string, AudienceDocument, boolean]>([
    ['a source', TIKTOK, true],
    [
      'an entry link with a country',
      {
        groups: [
          [
            { attribute: 'entry', operator: 'equals', values: ['bf'] },
            { attribute: 'country', operator: 'in', values: ['DE'] },
          ],
        ],
      },
      true,
    ],
    [
      'a campaign in one of two groups',
      {
        groups: [
          [{ attribute: 'country', operator: 'in', values: ['DE'] }],
          [{ attribute: 'utm_campaign', operator: 'contains', values: ['bf'] }],
        ],
      },
      true,
    ],
    [
      'a TikTok click id',
      { groups: [[{ attribute: 'click_id', operator: 'in', values: ['tiktok'] }]] },
      true,
    ],
    [
      'any click id',
      { groups: [[{ attribute: 'click_id', operator: 'not_in', values: ['none'] }]] },
      true,
    ],
    [
      'no click id',
      { groups: [[{ attribute: 'click_id', operator: 'in', values: ['none'] }]] },
      false,
    ],
    [
      'countries only',
      { groups: [[{ attribute: 'country', operator: 'in', values: ['DE'] }]] },
      false,
    ],
    [
      'a source left out',
      { groups: [[{ attribute: 'source', operator: 'not_in', values: ['meta'] }]] },
      false,
    ],
  ])('%s: %s', (_name, audience, met) => {
    expect(metByLink(audience)).toBe(met);
  });
});

describe('schedule times', () => {
  it('reads a datetime-local value as UTC and back', () => {
    expect(utcInstantOf('2026-11-27T00:00')).toBe('2026-11-27T00:00Z');
    expect(utcInstantOf('')).toBeUndefined();
    expect(localValueOf('2026-11-27T00:00Z')).toBe('2026-11-27T00:00');
    expect(localValueOf(undefined)).toBe('');
  });
});

describe('the routes the split test draws', () => {
  it('keeps the routing’s order and writes only default as no field, as the live config has it', () => {
    const document = routed();
    expect(withSplitRoutes(document, ['default', 'a']).split.routes).toEqual(['a', 'default']);
    const back = withSplitRoutes(withSplitRoutes(document, ['a']), ['default']);
    expect(back.split).toEqual(document.split);
    expect('routes' in back.split).toBe(false);
    // None: the split draws no one.
    expect(withSplitRoutes(document, []).split.routes).toEqual([]);
    // A name the routing lacks is not kept.
    expect(withSplitRoutes(document, ['a', 'gone']).split.routes).toEqual(['a']);
  });

  it('takes a removed route out of the split, which could not draw it any more', () => {
    const drawn = withSplitRoutes(routed(), ['a', 'default']);
    // Only default left: the field's default, no field.
    expect(withRouteRemoved(drawn, 'a').split.routes).toBeUndefined();
    expect(withRouteRemoved(drawn, 'b').split.routes).toEqual(['a', 'default']);
  });
});
