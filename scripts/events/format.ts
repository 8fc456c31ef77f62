import type { ArchivedObject } from '../../worker/collector/event-archive';
import type { EventRecord } from '../../worker/collector/event-record';

/**
 * One line per event for `npm run events -- tail | list | archive tail`: fixed-width columns, so
 * lines printed one by one as they arrive still line up.
 */

/** What a line shows: a row of the local store and a line of the archive both have it. */
export type EventLineFields = Pick<
  EventRecord,
  'time' | 'event_type' | 'screen_name' | 'device_id' | 'user_id' | 'insert_id'
>;

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

export function formatEventLine(event: EventLineFields): string {
  return [
    eventTime(event.time),
    column(event.event_type, WIDTH.event),
    column(event.screen_name ?? NONE, WIDTH.screen),
    column(visitorAndUser(event.device_id, event.user_id), WIDTH.who),
    printable(event.insert_id),
  ].join('  ');
}

const NUMBER_WIDTH = { events: 6, bytes: 9 } as const;

/** `npm run events -- archive list`: when each object was written, its events, its size, its key. */
export const ARCHIVED_OBJECT_HEADER = [
  column('written (UTC)', WIDTH.time),
  'events'.padStart(NUMBER_WIDTH.events),
  'bytes'.padStart(NUMBER_WIDTH.bytes),
  'key',
].join('  ');

export function formatArchivedObject(object: ArchivedObject): string {
  return [
    eventTime(object.uploaded.getTime()),
    String(object.events ?? '?').padStart(NUMBER_WIDTH.events),
    String(object.size).padStart(NUMBER_WIDTH.bytes),
    printable(object.key),
  ].join('  ');
}
