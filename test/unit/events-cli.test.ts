import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIST_COUNT,
  MAX_LIST_COUNT,
  parseEventsArgs,
} from '../../scripts/events/arguments';
import {
  ARCHIVED_OBJECT_HEADER,
  EVENT_LINE_HEADER,
  eventTime,
  formatArchivedObject,
  formatEventLine,
  visitorAndUser,
} from '../../scripts/events/format';
import type { StoredEvent } from '../../worker/collector/event-log';

const ROW: StoredEvent = {
  seq: 7,
  insert_id: 'ins-000001-abcdef12',
  event_type: 'subs_purchase_completed',
  time: Date.UTC(2026, 10, 22, 8, 6, 37, 840),
  received_at: Date.UTC(2026, 10, 22, 8, 6, 38, 0),
  device_id: '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a',
  user_id: 'user-42',
  session_id: 1,
  screen_name: 'checkout_v3_tr',
  properties: '{}',
  context: '{}',
};

describe('npm run events lines', () => {
  it('shows time (UTC, ms), event, screen, visitor/user and insert_id in fixed columns', () => {
    const line = formatEventLine(ROW);
    expect(line).toBe(
      [
        '2026-11-22 08:06:37.840',
        'subs_purchase_completed'.padEnd(28),
        'checkout_v3_tr'.padEnd(22),
        '3f0c4a8e/user-42'.padEnd(30),
        'ins-000001-abcdef12',
      ].join('  '),
    );
    // Lines printed one at a time still line up under the header.
    expect(line.indexOf('ins-000001')).toBe(EVENT_LINE_HEADER.indexOf('insert_id'));
  });

  it('a visitor not signed up yet shows the visitor alone; no screen shows -', () => {
    const line = formatEventLine({ ...ROW, user_id: null, screen_name: null });
    expect(line).toContain(`  ${'3f0c4a8e'.padEnd(30)}  `);
    expect(line).toContain(`  ${'-'.padEnd(22)}  `);
  });

  it('cuts long names so the columns hold, and never passes control characters on', () => {
    const line = formatEventLine({
      ...ROW,
      event_type: 'x'.repeat(60),
      screen_name: 'a\u001b[31mred\nscreen',
    });
    expect(line).toContain(`${'x'.repeat(27)}…`);
    expect(line).not.toMatch(/\p{Cc}/u);
    expect(line.indexOf('ins-000001')).toBe(EVENT_LINE_HEADER.indexOf('insert_id'));
  });

  it('formats epoch ms and the visitor id', () => {
    expect(eventTime(0)).toBe('1970-01-01 00:00:00.000');
    expect(visitorAndUser('abc', null)).toBe('abc');
  });
});

describe('npm run events -- archive list lines', () => {
  it('shows when each object was written, its events, its size and its key, in columns', () => {
    const key = 'events/dt=2026-11-22/hour=08/1795334400123-5f3a9c0e.ndjson.gz';
    const line = formatArchivedObject({
      key,
      size: 834,
      events: 12,
      uploaded: new Date(Date.UTC(2026, 10, 22, 8, 0, 1, 250)),
    });
    expect(line).toBe(['2026-11-22 08:00:01.250', '    12', '      834', key].join('  '));
    expect(line.indexOf(key)).toBe(ARCHIVED_OBJECT_HEADER.indexOf('key'));
  });

  it('an object without an event count shows ?', () => {
    const line = formatArchivedObject({ key: 'k', size: 1, events: null, uploaded: new Date(0) });
    expect(line).toContain('     ?  ');
  });
});

describe('npm run events arguments', () => {
  it('reads tail and list [count]', () => {
    expect(parseEventsArgs(['tail'])).toEqual({
      kind: 'run',
      command: { name: 'tail' },
      options: { remote: false, environment: 'development', persistTo: undefined },
    });
    expect(parseEventsArgs(['list'])).toMatchObject({
      command: { name: 'list', count: DEFAULT_LIST_COUNT },
    });
    expect(parseEventsArgs(['list', '50', '--persist-to', '/tmp/s'])).toMatchObject({
      command: { name: 'list', count: 50 },
      options: { persistTo: '/tmp/s' },
    });
  });

  it('reads archive list [day], archive read <key> and archive tail', () => {
    expect(parseEventsArgs(['archive', 'list'])).toMatchObject({
      command: { name: 'archive', archive: { name: 'list', date: null } },
    });
    expect(parseEventsArgs(['archive', 'list', '2026-11-22'])).toMatchObject({
      command: { name: 'archive', archive: { name: 'list', date: '2026-11-22' } },
    });
    const key = 'events/dt=2026-11-22/hour=08/1795334400123-5f3a9c0e.ndjson.gz';
    expect(parseEventsArgs(['archive', 'read', key, '--persist-to', '/tmp/s'])).toEqual({
      kind: 'run',
      command: { name: 'archive', archive: { name: 'read', key } },
      options: { remote: false, environment: 'development', persistTo: '/tmp/s' },
    });
    expect(parseEventsArgs(['archive', 'tail'])).toMatchObject({
      command: { name: 'archive', archive: { name: 'tail' } },
    });
  });

  it.each([
    [['list', '0'], /count must be a whole number from 1 to/],
    [['list', String(MAX_LIST_COUNT + 1)], /count must be/],
    [['list', '-3'], /count must be|Unknown option/],
    [['list', '5', '6'], /one count/],
    [['tail', 'now'], /tail takes no arguments/],
    [['show'], /unknown command "show"/],
    [['tail', '--remote'], /local only/],
    [['tail', '--env', 'production'], /^--env production: .*local only/],
    [['archive'], /archive needs list, read or tail/],
    [['archive', 'show'], /unknown archive command "show"/],
    [['archive', 'list', '22-11-2026'], /YYYY-MM-DD/],
    [['archive', 'list', '2026-02-30'], /YYYY-MM-DD/],
    [['archive', 'list', '2026-11-22', '2026-11-23'], /one day/],
    [['archive', 'read'], /one object key/],
    [['archive', 'tail', 'now'], /takes no arguments/],
    [['archive', 'list', '--remote'], /local only/],
    [[], /no command given/],
  ])('%j is a usage error', (argv, message) => {
    const parsed = parseEventsArgs(argv);
    expect(parsed.kind).toBe('usage-error');
    expect(parsed.kind === 'usage-error' ? parsed.error : '').toMatch(message);
  });
});
