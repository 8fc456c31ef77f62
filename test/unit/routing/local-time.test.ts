import { describe, expect, it } from 'vitest';
import { localTime } from '../../../worker/routing/attributes';

/**
 * The hour and weekday a route's audience reads are the visitor's (request.cf.timezone), so an
 * "evenings" route follows the visitor's clock, summer time included; the workerd tests send a
 * zone through request.cf, these pin the edges.
 */
describe("the visitor's local time", () => {
  it.each([
    // Berlin leaves winter time at 01:00 UTC on 29 March 2026.
    ['2026-03-29T00:59:00Z', 'Europe/Berlin', { hour: 1, weekday: 'sun' }],
    ['2026-03-29T01:00:00Z', 'Europe/Berlin', { hour: 3, weekday: 'sun' }],
    // New York's evening is already tomorrow in UTC.
    ['2026-11-26T02:30:00Z', 'America/New_York', { hour: 21, weekday: 'wed' }],
    // Half-hour and quarter-hour zones round down to their hour.
    ['2026-11-25T22:30:00Z', 'Asia/Kolkata', { hour: 4, weekday: 'thu' }],
    ['2026-11-25T22:30:00Z', 'Asia/Kathmandu', { hour: 4, weekday: 'thu' }],
    // Midnight is hour 0, never 24.
    ['2026-11-25T23:00:00Z', 'Europe/Berlin', { hour: 0, weekday: 'thu' }],
    ['2026-11-25T22:30:00Z', null, { hour: 22, weekday: 'wed' }],
    ['2026-11-25T22:30:00Z', 'Not/AZone', { hour: 22, weekday: 'wed' }],
    ['2026-11-25T22:30:00Z', '', { hour: 22, weekday: 'wed' }],
  ] as const)('%s in %s', (at, zone, expected) => {
    expect(localTime(Date.parse(at), zone)).toEqual(expected);
  });
});
