import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  capValue,
  eventProperties,
  pageProperties,
  screenName,
} from '../../../islands/analytics/build-event';
import { CollectedEvent } from '../../../shared/analytics/batch';
import { ANALYTICS_LIMITS } from '../../../shared/analytics/limits';
import type { TrackingData } from '../../../shared/analytics/tracking';
import { analyticsAnswers } from '../../../shared/quiz/answers';
import { type AnsweredQuestion, question } from '../../../shared/quiz/question';
import { PAGE, trackerUnderTest } from './fakes';

/**
 * What each event carries (SPEC.md §3 "Tracking user data sent with events", §9 property limit
 * and string truncation), checked against the collector's own schema.
 */

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const TRACKING: TrackingData = {
  appsflyer_id: 'af-1',
  google_tracking_id: 'G-XYZ',
  google_client_id: null,
  fb_pixel_id: '1234567890',
  user_data: {
    uuid: PAGE.deviceId,
    fbc: 'fb.1.1700000000000.click',
    fbp: 'fb.1.1700000000000.987',
    fb_click_id: 'click',
    ttp: null,
    tt_click_id: null,
    source_url: 'https%3A%2F%2Fapp.example',
    google_click_id: 'g-1',
  },
};

describe('an event as the collector receives it', () => {
  it('has an insert id, the time, the session, the visitor as device and the signed-up user', () => {
    const { tracker } = trackerUnderTest({ userId: () => 'ext-42' });
    const event = tracker.track('lead', { method: 'email' })!;
    expect(event).toEqual({
      event_type: 'lead',
      insert_id: 'insert-0002',
      time: Date.now(),
      session_id: Date.now(),
      device_id: PAGE.deviceId,
      user_id: 'ext-42',
      event_properties: {
        screen_name: 'one_pager',
        variant: 'default',
        flow: 'default',
        config_version: 'v1',
        method: 'email',
      },
    });
    expect(CollectedEvent.safeParse(event).success).toBe(true);
  });

  it('has no user before sign-up', () => {
    const { tracker } = trackerUnderTest();
    expect(tracker.track('load')!.user_id).toBeNull();
  });

  it('carries the tracking user data flat, leaving out the empty ids', () => {
    const properties = pageProperties({
      screen: 'checkout_v3_tr',
      path: '/checkout_v3_tr',
      variant: 'lp11/b',
      flow: 'lp11ch8',
      configVersion: '7',
      route: 'tiktok_de',
      source: 'tiktok',
      inApp: null,
      tracking: TRACKING,
    });
    expect(properties).toEqual({
      screen_name: 'checkout_v3_tr',
      variant: 'lp11/b',
      flow: 'lp11ch8',
      config_version: '7',
      route: 'tiktok_de',
      traffic_source: 'tiktok',
      appsflyer_id: 'af-1',
      google_tracking_id: 'G-XYZ',
      fb_pixel_id: '1234567890',
      uuid: PAGE.deviceId,
      fbc: 'fb.1.1700000000000.click',
      fbp: 'fb.1.1700000000000.987',
      fb_click_id: 'click',
      source_url: 'https%3A%2F%2Fapp.example',
      google_click_id: 'g-1',
    });
  });

  it("carries the visit's route and traffic source, never as `source`, which the worker owns", () => {
    const properties = pageProperties({
      screen: 'signup',
      path: '/signup',
      variant: 'default',
      flow: 'default',
      configVersion: '7',
      route: 'tiktok_de',
      source: 'tiktok',
      inApp: null,
      tracking: null,
    });
    expect(properties).toMatchObject({ route: 'tiktok_de', traffic_source: 'tiktok' });
    expect(properties).not.toHaveProperty('source');
  });

  it('carries a quiz’s answers as the worker hands them, on every event of the page', () => {
    const questions = {
      who: question.parse({
        kind: 'single',
        key: 'who',
        title: { en: 'Who?' },
        choices: [
          { value: 'child', label: { en: 'My child' } },
          { value: 'partner', label: { en: 'My partner' } },
        ],
      }),
      name: question.parse({ kind: 'text', key: 'name', title: { en: 'Name?' }, maxLength: 20 }),
    } as Record<string, AnsweredQuestion>;
    const answers = analyticsAnswers({ who: 'child', name: 'Mia', gone: 'x' }, questions);
    expect(answers).toEqual({ quiz_who: 'child' });
    const properties = pageProperties({
      screen: 'signup',
      path: '/signup',
      variant: 'default',
      flow: 'default',
      configVersion: '7',
      route: 'default',
      source: 'direct',
      inApp: null,
      tracking: null,
      answers,
    });
    expect(properties).toMatchObject({ screen_name: 'signup', quiz_who: 'child' });
    expect(Object.values(properties)).not.toContain('Mia');
  });

  it('names the in-app browser the page is shown in, app and OS, and nothing in others', () => {
    const page = {
      screen: 'signup',
      path: '/signup',
      variant: 'default',
      flow: 'default',
      configVersion: '7',
      route: 'default',
      source: 'direct',
      tracking: null,
    };
    expect(pageProperties({ ...page, inApp: { app: 'tiktok', os: 'ios' } })).toMatchObject({
      in_app_browser: 'tiktok_ios',
    });
    expect(pageProperties({ ...page, inApp: null })).not.toHaveProperty('in_app_browser');
  });

  it('names the screen by its id, else by the path without its leading slash (SPEC.md §3)', () => {
    expect(screenName('signup', '/signup')).toBe('signup');
    expect(screenName('', '/some/where')).toBe('some/where');
  });

  it("keeps the page's properties: an event cannot pass another screen_name", () => {
    const properties = eventProperties(
      PAGE.properties,
      { screen_name: 'elsewhere', plan: 'monthly_usd' },
      ANALYTICS_LIMITS,
    );
    expect(properties.screen_name).toBe('one_pager');
    expect(properties.plan).toBe('monthly_usd');
  });

  it('drops an event whose name the collector would refuse, logged', () => {
    const { tracker, log, transport } = trackerUnderTest();
    expect(tracker.track('not a name!')).toBeNull();
    expect(tracker.track('x'.repeat(129))).toBeNull();
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('not a valid event name'));
    expect(tracker.queue.size()).toBe(1); // the session_start
    expect(transport.requests).toHaveLength(0);
  });
});

describe('caps (SPEC.md §9: 1000 properties, strings of 4096 characters)', () => {
  it('drops the properties beyond 1000, keeping the page’s', () => {
    const own = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`p${i}`, i]));
    const properties = eventProperties(PAGE.properties, own, ANALYTICS_LIMITS);
    expect(Object.keys(properties)).toHaveLength(1000);
    expect(properties.screen_name).toBe('one_pager');
    expect(properties.p995).toBe(995);
    expect(properties.p996).toBeUndefined();
  });

  it('cuts strings at 4096 characters, never in the middle of an emoji', () => {
    expect(capValue('a'.repeat(5000), 4096)).toHaveLength(4096);
    const emojiAcrossTheCut = `${'a'.repeat(4095)}😀`;
    expect(capValue(emojiAcrossTheCut, 4096)).toBe('a'.repeat(4095));
  });

  it('sends objects and arrays as JSON text, cut like any string', () => {
    expect(capValue({ plan: 'monthly', price: 6.99 }, 4096)).toBe(
      '{"plan":"monthly","price":6.99}',
    );
    expect(capValue([1, 'two'], 4096)).toBe('[1,"two"]');
    expect(capValue({ long: 'x'.repeat(5000) }, 4096)).toHaveLength(4096);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(capValue(cycle, 4096)).toBe('[object Object]');
  });

  it('keeps numbers, booleans and null; makes NaN and Infinity null; leaves out what has no value', () => {
    expect(capValue(6.99, 10)).toBe(6.99);
    expect(capValue(false, 10)).toBe(false);
    expect(capValue(null, 10)).toBeNull();
    expect(capValue(Number.NaN, 10)).toBeNull();
    expect(capValue(Number.POSITIVE_INFINITY, 10)).toBeNull();
    expect(capValue(10n, 10)).toBe('10');
    expect(capValue(undefined, 10)).toBeUndefined();
    expect(capValue(() => 1, 10)).toBeUndefined();
  });

  it('a capped event still passes the collector’s schema', () => {
    const { tracker } = trackerUnderTest();
    const own = Object.fromEntries(
      Array.from({ length: 1100 }, (_, i) => [`p${i}`, i % 2 ? 'y'.repeat(5000) : { i }]),
    );
    const event = tracker.track('click', { ...own, ['k'.repeat(300)]: 'too long a key' })!;
    expect(CollectedEvent.safeParse(event).success).toBe(true);
  });
});
