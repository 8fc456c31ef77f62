import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DEAD_LETTER_COUNT,
  parseDeadLetterArgs,
  parseSince,
} from '../../scripts/events/dead-letter-arguments';
import { formatDeadLetterDetail } from '../../scripts/events/dead-letters';
import { inline, remoteD1Runner } from '../../scripts/remote-d1';

const LOCAL = { remote: false, environment: 'development', persistTo: undefined };

describe('npm run events -- dead-letters', () => {
  it('reads list, show and redrive with their arguments', () => {
    expect(parseDeadLetterArgs(['list'])).toEqual({
      kind: 'run',
      command: { name: 'list', count: DEFAULT_DEAD_LETTER_COUNT },
      options: LOCAL,
    });
    expect(parseDeadLetterArgs(['list', '5', '--remote', '--env', 'staging'])).toEqual({
      kind: 'run',
      command: { name: 'list', count: 5 },
      options: { remote: true, environment: 'staging', persistTo: undefined },
    });
    expect(parseDeadLetterArgs(['show', '12'])).toMatchObject({
      command: { name: 'show', id: 12 },
    });
    expect(parseDeadLetterArgs(['redrive'])).toMatchObject({
      command: { name: 'redrive', id: null, since: null },
    });
    expect(parseDeadLetterArgs(['redrive', '--since', '2026-11-22'])).toMatchObject({
      command: { name: 'redrive', id: null, since: Date.UTC(2026, 10, 22) },
    });
    expect(
      parseDeadLetterArgs([
        'redrive',
        '7',
        '--since',
        '2026-11-22T08:30:00+01:00',
        '--persist-to',
        'x',
      ]),
    ).toEqual({
      kind: 'run',
      command: {
        name: 'redrive',
        id: 7,
        since: Date.UTC(2026, 10, 22, 7, 30),
        destinations: null,
        force: false,
        url: new URL('http://127.0.0.1:8787'),
      },
      options: { remote: false, environment: 'development', persistTo: 'x' },
    });
    expect(
      parseDeadLetterArgs([
        'redrive',
        '--destination',
        'amplitude, meta',
        '--force',
        '--url',
        'http://localhost:9999',
      ]),
    ).toMatchObject({
      command: {
        destinations: ['amplitude', 'meta'],
        force: true,
        url: new URL('http://localhost:9999'),
      },
    });
    // The deployed worker's cron sends a remote redrive: no local worker to call.
    expect(
      parseDeadLetterArgs(['redrive', '--remote', '--env', 'staging', '--destination', 'tiktok']),
    ).toMatchObject({ command: { destinations: ['tiktok'], url: null } });
    expect(parseDeadLetterArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it.each([
    [[], 'dead-letters needs list, show or redrive'],
    [['purge'], 'unknown command "purge"'],
    [['list', '0'], 'count must be'],
    [['show'], 'show takes one id'],
    [['show', 'abc'], 'show takes one id'],
    [['redrive', '1', '2'], 'at most one id'],
    [['redrive', '--since', 'yesterday'], '--since takes'],
    [['redrive', '--since', '2026-02-30'], '--since takes'],
    [['list', '--since', '2026-11-22'], '--since is for redrive'],
    [['list', '--remote', '--env', 'production', '--persist-to', 'x'], '--persist-to'],
    // A command typed for staging must not reach production's database by default.
    [['list', '--remote'], '--remote needs --env staging or --env production'],
    [['list', '--remote', '--env', 'development'], 'never deployed'],
    [['list', '--env', 'staging'], 'only npm start'],
    [['list', '--force'], '--force is for redrive'],
    [['show', '1', '--destination', 'meta'], '--destination is for redrive'],
    [['redrive', '--destination', 'facebook'], '--destination takes local, archive, amplitude'],
    [['redrive', '--destination', ''], '--destination takes'],
    [['redrive', '--url', 'localhost'], '--url takes an origin'],
    [['redrive', '--url', 'file:///etc/passwd'], '--url takes an http(s) origin'],
    [['redrive', '--remote', '--env', 'staging', '--url', 'http://x'], 'drop it with --remote'],
  ])('refuses %j', (argv, error) => {
    const parsed = parseDeadLetterArgs(argv);
    expect(parsed.kind).toBe('usage-error');
    expect(parsed.kind === 'usage-error' ? parsed.error : '').toContain(error);
  });

  it('--since takes a day or a time with its zone, never a bare local time', () => {
    expect(parseSince('2026-11-22T08:00:00Z')).toBe(Date.UTC(2026, 10, 22, 8));
    expect(parseSince('2026-11-22T08:00')).toBeNull();
    expect(parseSince('1764115200000')).toBeNull();
  });

  const row = {
    seq: 1,
    insert_id: null,
    failed_at: Date.UTC(2026, 10, 22),
    redrive_requested_at: null,
    redriven_at: null,
    events: 0,
    event_type: null,
    bytes: 10,
    destinations: null,
    attempts: null,
    error: null,
    redrive_destinations: null,
    event_at: null,
  };

  it('show prints a stored message indented, never a raw control character', () => {
    const detail = formatDeadLetterDetail({ ...row, body: '{"v":99,"text":"a\\u001b[2Jb"}' });
    expect(detail).toContain('"text": "a\\u001b[2Jb"');
    expect(detail).not.toContain('\u001b');
  });

  it('show escapes an insert_id a visitor typed, and says where, why and how often it failed', () => {
    const detail = formatDeadLetterDetail({
      ...row,
      insert_id: 'evt\u001b[2J\u001b]0;owned\u0007',
      events: 1,
      destinations: '["amplitude","meta"]',
      attempts: 11,
      error: '{"amplitude":"amplitude_unavailable","meta":"ad_network_auth"}',
      event_at: Date.UTC(2026, 10, 21, 23),
      body: '{"v":1}',
    });
    expect(detail).not.toMatch(/\p{Cc}(?<!\n)/u);
    expect(detail).toContain('insert_id:   "evt\\u001b[2J\\u001b]0;owned\\u0007"');
    expect(detail).toContain('never reached: amplitude, meta');
    expect(detail).toContain('  amplitude: "amplitude_unavailable"');
    expect(detail).toContain('  meta: "ad_network_auth"');
    expect(detail).toContain('tried:       11 times');
  });

  it.each([
    ['staging', 'staging'],
    ['production', ''],
  ] as const)(
    "--remote --env %s reads that environment's EVENTS_DB through wrangler",
    async (environment, named) => {
      const calls: (readonly string[])[] = [];
      const sql = remoteD1Runner('EVENTS_DB', environment, async (args) => {
        calls.push(args);
        return { stdout: JSON.stringify([{ results: [{ n: 1 }], meta: { changes: 0 } }]) };
      });
      expect(await sql.all('SELECT ? AS n', [1])).toEqual([{ n: 1 }]);
      expect(calls).toEqual([
        [
          'd1',
          'execute',
          'EVENTS_DB',
          '--remote',
          '--env',
          named,
          '--json',
          '--command',
          'SELECT 1 AS n',
        ],
      ]);
    },
  );

  it('the remote statements quote every text value, so none can end its literal', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer(), (text, number) => {
        const sql = inline('SELECT ? AS t, ? AS n, ? AS z', [text, number, null]);
        const literal = sql.slice('SELECT '.length, sql.indexOf(' AS t'));
        expect(literal).toBe(`'${text.replaceAll("'", "''")}'`);
        expect(sql.endsWith(`, ${number} AS n, NULL AS z`)).toBe(true);
      }),
    );
  });
});
