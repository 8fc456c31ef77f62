import type { StoredEvent } from '../../worker/collector/event-log';

/**
 * One line per event for `npm run events -- tail | list`: fixed-width columns, so lines printed
 * one by one as they arrive still line up.
 */

const WIDTH = { time: 23, event: 28, screen: 22, who: 30 } as const;
const NONE = '-';

/** Visitors typed some of this; control characters are shown as spaces, never obeyed. */
function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, ' ');
}

function column(text: string, width: number): string {
  const clean = printable(text);
  const cut = clean.length > width ? `${clean.slice(0, width - 1)}…` : clean;
  return cut.padEnd(width);
}

/** 1700000000123 → '2023-11-14 22:13:20.123' (UTC). */
export function eventTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace('T', ' ').replace('Z', '');
}

/** The visitor uuid's first block, and the user id once signed up: `3f0c4a8e/user-42`. */
export function visitorAndUser(deviceId: string, userId: string | null): string {
  const device = deviceId.split('-')[0] ?? deviceId;
  return userId === null ? device : `${device}/${userId}`;
}

export const EVENT_LINE_HEADER = [
  column('time (UTC)', WIDTH.time),
  column('event', WIDTH.event),
  column('screen', WIDTH.screen),
  column('visitor/user', WIDTH.who),
  'insert_id',
].join('  ');

export function formatEventLine(event: StoredEvent): string {
  return [
    eventTime(event.time),
    column(event.event_type, WIDTH.event),
    column(event.screen_name ?? NONE, WIDTH.screen),
    column(visitorAndUser(event.device_id, event.user_id), WIDTH.who),
    printable(event.insert_id),
  ].join('  ');
}
