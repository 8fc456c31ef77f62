import { describe, expect, it } from 'vitest';
import { vitalsProperties } from '../../../islands/analytics/vitals';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import { vitalsEventValid } from '../../../worker/collector/vitals-intake';

const VISITOR = '8b0c5f0e-4a8e-4c47-9a8e-3d1c2b7e6f10';

function event(properties: Record<string, unknown>): CollectedEvent {
  return {
    event_type: 'web_vitals',
    insert_id: 'vitals-0001',
    time: 1_790_000_000_000,
    session_id: 1_790_000_000_000,
    device_id: VISITOR,
    user_id: null,
    event_properties: {
      screen_name: 'landing',
      ...properties,
    } as CollectedEvent['event_properties'],
  };
}

const taken = (properties: Record<string, unknown>) =>
  vitalsEventValid(event(properties), VISITOR, 1);

describe('the page’s vitals event', () => {
  it('carries each value measured with Google’s rating, and the page’s arms', () => {
    expect(vitalsProperties({ lcp: 2512.4, inp: 96, cls: 0.031_23 }, { 'lp-hero': 'b' })).toEqual({
      lcp: 2512,
      lcp_rating: 'needs-improvement',
      inp: 96,
      inp_rating: 'good',
      cls: 0.0312,
      cls_rating: 'good',
      'exp_lp-hero': 'b',
    });
  });

  it('leaves out what was not measured, and is nothing when nothing was', () => {
    expect(vitalsProperties({ lcp: 900 }, {})).toEqual({ lcp: 900, lcp_rating: 'good' });
    expect(vitalsProperties({}, { 'lp-hero': 'b' })).toBeNull();
    expect(vitalsProperties({ inp: Number.NaN }, {})).toBeNull();
  });

  it('clamps a page left open for minutes to the largest value the collector takes', () => {
    expect(vitalsProperties({ lcp: 400_000, cls: 31 }, {})).toMatchObject({
      lcp: 120_000,
      lcp_rating: 'poor',
      cls: 10,
    });
  });

  it('is what the collector takes', () => {
    const sent = vitalsProperties({ lcp: 400_000, inp: 480, cls: 0 }, { 'lp-hero': 'b', pw: 'a' });
    expect(taken(sent!)).toBe(true);
  });
});

describe('what the collector refuses of a vitals event', () => {
  const honest = { lcp: 1800, lcp_rating: 'good' };

  it.each([
    ['a value as text', { lcp: '1800', lcp_rating: 'good' }],
    ['a negative value', { lcp: -5, lcp_rating: 'good' }],
    ['a value over the maximum', { lcp: 120_001, lcp_rating: 'poor' }],
    ['an INP of an hour', { inp: 3_600_000, inp_rating: 'poor' }],
    ['a CLS of 11', { cls: 11, cls_rating: 'poor' }],
    ['a rating its value does not have', { lcp: 9000, lcp_rating: 'good' }],
    ['an unknown rating', { inp: 50, inp_rating: 'great' }],
    ['a value without its rating', { cls: 0.02 }],
    ['a rating without its value', { inp_rating: 'good' }],
    ['no value at all', {}],
    ['an arm that is no variant key', { ...honest, exp_pw: 'b<script>' }],
    ['an arm that is a number', { ...honest, exp_pw: 2 }],
    ['an arm without an experiment', { ...honest, exp_: 'b' }],
    ['an experiment id over 64 characters', { ...honest, [`exp_${'x'.repeat(65)}`]: 'b' }],
    [
      'nine arms',
      { ...honest, ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`exp_e${i}`, 'b'])) },
    ],
    [
      'fifty properties',
      { ...honest, ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, 1])) },
    ],
  ])('%s', (_, properties) => {
    expect(taken(properties)).toBe(false);
  });

  it('from a request without a visitor cookie, or a visitor outside the sample', () => {
    expect(vitalsEventValid(event(honest), null, 1)).toBe(false);
    expect(vitalsEventValid(event(honest), VISITOR, 0)).toBe(false);
    expect(vitalsEventValid(event(honest), VISITOR, 1)).toBe(true);
  });
});
