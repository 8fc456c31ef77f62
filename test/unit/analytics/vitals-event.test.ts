import { describe, expect, it } from 'vitest';
import { vitalsProperties } from '../../../islands/analytics/vitals';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import { takenVitals, withValidVitals } from '../../../worker/collector/vitals-intake';
import { pageVitals } from '../../../worker/collector/vitals-sample';

const VISITOR = '8b0c5f0e-4a8e-4c47-9a8e-3d1c2b7e6f10';
const KEY = 'cookie-key-of-this-test';
const NOW = 1_790_000_000_000;
const SENDER = { visitorId: VISITOR, key: KEY };

/** The ticket of a page the worker drew into the sample and served to VISITOR. */
async function servedTicket(): Promise<string> {
  const vitals = await pageVitals({ rate: 1, key: KEY, now: NOW }, VISITOR, () => []);
  return vitals?.ticket ?? '';
}

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

/** Whether the collector takes the event with these properties and a served page's ticket. */
const taken = async (properties: Record<string, unknown>) =>
  (await takenVitals(
    event({ ...properties, vitals_ticket: await servedTicket() }),
    SENDER,
    NOW,
  )) !== null;

describe('the page’s vitals event', () => {
  const page = (arms: Record<string, string>) => ({ arms, ticket: 'the-page-ticket' });

  it('carries each value measured with Google’s rating, the page’s arms and its ticket', () => {
    expect(
      vitalsProperties({ lcp: 2512.4, inp: 96, cls: 0.031_23 }, page({ 'lp-hero': 'b' })),
    ).toEqual({
      lcp: 2512,
      lcp_rating: 'needs-improvement',
      inp: 96,
      inp_rating: 'good',
      cls: 0.0312,
      cls_rating: 'good',
      'exp_lp-hero': 'b',
      vitals_ticket: 'the-page-ticket',
    });
  });

  it('leaves out what was not measured, and is nothing when nothing was', () => {
    expect(vitalsProperties({ lcp: 900 }, page({}))).toEqual({
      lcp: 900,
      lcp_rating: 'good',
      vitals_ticket: 'the-page-ticket',
    });
    expect(vitalsProperties({}, page({ 'lp-hero': 'b' }))).toBeNull();
    expect(vitalsProperties({ inp: Number.NaN }, page({}))).toBeNull();
  });

  it('clamps a page left open for minutes to the largest value the collector takes', () => {
    expect(vitalsProperties({ lcp: 400_000, cls: 31 }, page({}))).toMatchObject({
      lcp: 120_000,
      lcp_rating: 'poor',
      cls: 10,
    });
  });

  it('is what the collector takes, kept under its page view without the ticket', async () => {
    const vitals = await pageVitals({ rate: 1, key: KEY, now: NOW }, VISITOR, () => [
      { experiment: 'lp-hero', variant: 'b' },
    ]);
    const sent = vitalsProperties({ lcp: 400_000, inp: 480, cls: 0 }, vitals!);
    const kept = await takenVitals(event(sent!), SENDER, NOW);
    expect(kept?.insert_id).toMatch(/^web_vitals:[0-9a-f]{32}$/);
    expect(kept?.event_properties).toEqual({
      screen_name: 'landing',
      lcp: 120_000,
      lcp_rating: 'poor',
      inp: 480,
      inp_rating: 'needs-improvement',
      cls: 0,
      cls_rating: 'good',
      'exp_lp-hero': 'b',
    });
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
  ])('%s', async (_, properties) => {
    expect(await taken(properties)).toBe(false);
  });

  it('without the ticket of a page served to the request’s visitor, or without a visitor cookie', async () => {
    const ticket = await servedTicket();
    const withTicket = (value: unknown) => event({ ...honest, vitals_ticket: value });
    expect(await takenVitals(withTicket(ticket), SENDER, NOW)).not.toBeNull();
    expect(await takenVitals(event(honest), SENDER, NOW)).toBeNull();
    expect(await takenVitals(withTicket(`${ticket}x`), SENDER, NOW)).toBeNull();
    expect(await takenVitals(withTicket(ticket), { ...SENDER, visitorId: null }, NOW)).toBeNull();
    const other = { ...SENDER, visitorId: '0f7a3c1e-92d4-4b6e-8a51-7c2d9e4b1a03' };
    expect(await takenVitals(withTicket(ticket), other, NOW)).toBeNull();
    expect(await takenVitals(withTicket(ticket), { ...SENDER, key: null }, NOW)).toBeNull();
  });
});

describe('a batch’s vitals events', () => {
  const honest = { lcp: 1800, lcp_rating: 'good' };

  it('two are looked at, forged or not: a tracker sends a page’s and one its beacon left', async () => {
    const good = async () => event({ ...honest, vitals_ticket: await servedTicket() });
    const forged = event({ ...honest, vitals_ticket: 'forged' });
    const load = { ...event({}), event_type: 'screen__load', insert_id: 'load-1' };
    const two = await withValidVitals([await good(), load, await good()], SENDER, NOW);
    expect(two.events.map((kept) => kept.event_type)).toEqual([
      'web_vitals',
      'screen__load',
      'web_vitals',
    ]);
    expect(two.dropped).toBe(0);
    // Two forged ones first: the good third is not looked at.
    const flood = await withValidVitals([forged, forged, await good(), load], SENDER, NOW);
    expect(flood.events).toEqual([load]);
    expect(flood.dropped).toBe(3);
  });
});
