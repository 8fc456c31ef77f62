import { describe, expect, it } from 'vitest';
import { MAX_FAULT_DELAY_MS } from '../../portal/faults';
import { PORTAL_CLI_USAGE, parsePortalArgs } from '../../scripts/portal/arguments';
import { describeFault, MAX_FAULT_COUNT } from '../../scripts/portal/fail-arguments';
import {
  LOOKUP_COLUMNS,
  PAYMENT_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  shortTime,
  USER_COLUMNS,
} from '../../scripts/portal/listings';
import { type Column, formatTable, MAX_CELL_WIDTH } from '../../scripts/portal/table';

describe('npm run portal arguments', () => {
  it.each([
    'users',
    'subscriptions',
    'payments',
    'lookups',
    'reminders',
    'declarations',
    'save-offers',
  ])('reads the listing %s', (name) => {
    expect(parsePortalArgs([name])).toEqual({
      kind: 'run',
      command: { name },
      options: { remote: false, environment: 'development', persistTo: undefined },
    });
  });

  it('reads --persist-to wherever it stands', () => {
    expect(parsePortalArgs(['--persist-to', '/tmp/state', 'users'])).toMatchObject({
      kind: 'run',
      options: { persistTo: '/tmp/state' },
    });
    expect(parsePortalArgs(['users', '--persist-to', '/tmp/state'])).toMatchObject({
      options: { persistTo: '/tmp/state' },
    });
  });

  it('reads fail with a call and a count, 1 when none is given', () => {
    expect(parsePortalArgs(['fail', 'payments-settings', '3'])).toMatchObject({
      kind: 'run',
      command: { name: 'fail', call: 'payments-settings', count: 3 },
    });
    expect(parsePortalArgs(['fail', 'cf-country'])).toMatchObject({
      command: { name: 'fail', call: 'cf-country', count: 1 },
    });
    expect(parsePortalArgs(['fail', 'signup', '0'])).toMatchObject({
      command: { count: 0 },
    });
  });

  it("reads --delay and --after for the card providers' fakes, wherever they stand", () => {
    expect(parsePortalArgs(['fail', 'charge-stripe', '3', '--delay', '20000'])).toMatchObject({
      kind: 'run',
      command: { name: 'fail', call: 'charge-stripe', count: 3, timing: 'before', delayMs: 20000 },
    });
    expect(parsePortalArgs(['fail', '--after', 'charge-braintree', '--delay=15000'])).toMatchObject(
      {
        command: { call: 'charge-braintree', count: 1, timing: 'after', delayMs: 15000 },
      },
    );
    // Charged, and the answer lost: any call of the portal's.
    expect(parsePortalArgs(['fail', 'subscriptions-polling', '--after'])).toMatchObject({
      command: { call: 'subscriptions-polling', timing: 'after', delayMs: 0 },
    });
    // Without either, a plain failure as before.
    expect(parsePortalArgs(['fail', 'charge-stripe'])).toMatchObject({
      command: { timing: 'before', delayMs: 0 },
    });
  });

  it("reads fail for a card provider's script: never, or --delay late", () => {
    expect(parsePortalArgs(['fail', 'script-stripe'])).toMatchObject({
      command: { name: 'fail', call: 'script-stripe', count: 1, timing: 'before', delayMs: 0 },
    });
    expect(parsePortalArgs(['fail', 'script-braintree', '2', '--delay', '8000'])).toMatchObject({
      command: { call: 'script-braintree', count: 2, delayMs: 8000 },
    });
  });

  it('says what the switch now does', () => {
    const fail = {
      name: 'fail',
      call: 'charge-stripe',
      count: 2,
      timing: 'before',
      delayMs: 0,
    } as const;
    expect(describeFault(fail)).toBe('charge-stripe: the next 2 call(s) answer 500');
    expect(describeFault({ ...fail, delayMs: 20000 })).toBe(
      'charge-stripe: the next 2 call(s) wait 20000 ms, then answer 500 uncharged (a timeout before the charge)',
    );
    expect(describeFault({ ...fail, timing: 'after', delayMs: 20000 })).toBe(
      'charge-stripe: the next 2 call(s) charge, then answer 20000 ms late (a timeout after the charge)',
    );
    expect(describeFault({ ...fail, timing: 'after' })).toBe(
      'charge-stripe: the next 2 call(s) do their work, then answer 500 (the answer lost)',
    );
    expect(describeFault({ ...fail, call: 'script-stripe' })).toBe(
      'script-stripe: the next 2 card form load(s) never get their script',
    );
    expect(describeFault({ ...fail, call: 'script-stripe', delayMs: 8000 })).toBe(
      'script-stripe: the next 2 card form load(s) get their script 8000 ms late',
    );
    expect(describeFault({ ...fail, count: 0 })).toBe('charge-stripe: failure switched off');
  });

  it('lists the delay, --after and the scripts in its help', () => {
    expect(PORTAL_CLI_USAGE).toContain('--delay <ms>');
    expect(PORTAL_CLI_USAGE).toContain('--after');
    expect(PORTAL_CLI_USAGE).toContain('script-stripe, script-braintree');
  });

  it("reads fail for the development kit's geocoder, which no portal route serves", () => {
    expect(parsePortalArgs(['fail', 'geocode', '2'])).toMatchObject({
      kind: 'run',
      command: { name: 'fail', call: 'geocode', count: 2 },
    });
  });

  it.each([
    [[], 'no command given'],
    [['orders'], 'unknown command "orders"'],
    [['users', 'extra'], 'users takes no arguments'],
    [['fail'], 'fail needs a call name'],
    [['fail', 'payment-settings'], 'unknown call "payment-settings"'],
    // node:util reads a negative count as an option; refused either way.
    [['fail', 'signup', '-1'], "Unknown option '-1'"],
    [
      ['fail', 'signup', '2.5'],
      `count must be a whole number from 0 to ${MAX_FAULT_COUNT}, not "2.5"`,
    ],
    [
      ['fail', 'signup', '1001'],
      `count must be a whole number from 0 to ${MAX_FAULT_COUNT}, not "1001"`,
    ],
    [['fail', 'signup', '1', '2'], 'fail takes a call and a count'],
    [
      ['fail', 'signup', '--delay', '100'],
      '--delay is for charge-stripe, charge-braintree, script-stripe, script-braintree',
    ],
    [
      ['fail', 'charge-stripe', '--delay', '0'],
      `--delay must be whole milliseconds from 1 to ${MAX_FAULT_DELAY_MS}, not "0"`,
    ],
    [
      ['fail', 'charge-stripe', '--delay', String(MAX_FAULT_DELAY_MS + 1)],
      `--delay must be whole milliseconds from 1 to ${MAX_FAULT_DELAY_MS}, not "${MAX_FAULT_DELAY_MS + 1}"`,
    ],
    [['fail', 'charge-stripe', '--delay'], '--delay needs a value'],
    [['fail', 'charge-stripe', '--after=yes'], '--after takes no value'],
    [
      ['fail', 'script-stripe', '--after'],
      "--after is for the portal's calls; script-stripe has no work to do first",
    ],
    [['users', '--delay', '100'], '--delay is for fail'],
    [['renew', 'sub_1', '--after'], '--after is for fail'],
    [
      ['--remote', 'users'],
      '--remote: the emulator is local only; production uses the real product API',
    ],
    [
      ['users', '--env', 'staging'],
      '--env staging: the emulator is local only; production uses the real product API',
    ],
    [['--nope', 'users'], "Unknown option '--nope'"],
    [['users', '--scheduled'], '--scheduled is for reminders'],
    [['renew', 'sub_1', '--scheduled'], '--scheduled is for reminders'],
    [['reminders', '--scheduled=yes'], '--scheduled takes no value'],
    [['reminders', '--port', '8788'], '--port is for reminders --scheduled'],
    [['renew', 'sub_1', '--port', '8788'], '--port is for reminders --scheduled'],
    [['reminders', '--url', 'http://localhost:8788'], '--url is for reminders --scheduled'],
    [['reminders', '--scheduled', 'soon'], 'reminders takes no arguments'],
    [
      ['reminders', '--scheduled', '--url', 'http://localhost:8787', '--port', '8788'],
      '--port and --url name the worker twice: give one',
    ],
    [
      ['reminders', '--scheduled', '--url', 'localhost:8787'],
      '--url must be an http(s) address such as http://localhost:8787',
    ],
    [
      ['reminders', '--scheduled', '--port', '0'],
      '--port: count must be a whole number from 1 to 65535, not "0"',
    ],
    [
      ['reminders', '--scheduled', '--amount', '5'],
      '--amount is for renew, renewal-failed, refund, chargeback and cancel',
    ],
    [
      ['reminders', '--scheduled', '--persist-to', '/tmp/state'],
      '--persist-to: reminders --scheduled reads the running worker, which keeps its own state; name it with --url or --port',
    ],
    [['reminders', '--scheduled', '--after'], '--after is for fail'],
  ])('refuses %j: %s', (argv, error) => {
    expect(parsePortalArgs(argv)).toEqual({ kind: 'usage-error', error });
  });

  it.each([
    [['reminders', '--scheduled'], 'http://localhost:8787'],
    [['--scheduled', 'reminders', '--port', '8790'], 'http://localhost:8790'],
    [['reminders', '--scheduled', '--port=8791'], 'http://localhost:8791'],
    [
      ['reminders', '--scheduled', '--url', 'https://staging.example.com/console'],
      'https://staging.example.com',
    ],
  ])('reads %j as the scheduled reminders of the worker at %s', (argv, url) => {
    expect(parsePortalArgs(argv)).toEqual({
      kind: 'run',
      command: { name: 'scheduled-reminders', url },
      options: { remote: false, environment: 'development', persistTo: undefined },
    });
  });

  it('lists reminders --scheduled and --port in its help', () => {
    expect(PORTAL_CLI_USAGE).toContain('reminders --scheduled');
    expect(PORTAL_CLI_USAGE).toContain('--port <n>');
  });

  it('answers help', () => {
    expect(parsePortalArgs(['users', '--help'])).toEqual({ kind: 'help' });
  });
});

describe('portal tables', () => {
  const columns: Column<{ a: string; b: number | null }>[] = [
    { header: 'letters', cell: (row) => row.a },
    { header: 'n', cell: (row) => row.b },
  ];

  it('pads every column to its widest cell, under a header and a rule', () => {
    expect(
      formatTable(columns, [
        { a: 'x', b: 12345 },
        { a: 'a longer value', b: 7 },
      ]),
    ).toBe(
      [
        'letters         n',
        '--------------  -----',
        'x               12345',
        'a longer value  7',
      ].join('\n'),
    );
  });

  it('shows a dash for missing values', () => {
    expect(formatTable(columns, [{ a: '', b: null }]).split('\n')[2]).toBe('-        -');
  });

  it('neutralises control characters, so a stored name cannot drive the terminal', () => {
    const row = formatTable(columns, [{ a: 'evil\u001b[2J\nname', b: 1 }]).split('\n')[2];
    expect(row).toBe('evil [2J name  1');
  });

  it('cuts cells longer than the maximum width with an ellipsis', () => {
    const long = 'n'.repeat(MAX_CELL_WIDTH + 10);
    const row = formatTable(columns, [{ a: long, b: 2 }]).split('\n')[2];
    expect(row).toBe(`${'n'.repeat(MAX_CELL_WIDTH - 1)}…  2`);
  });

  it('shortens stored ISO times to UTC seconds', () => {
    expect(shortTime('2026-05-01T09:30:12.345Z')).toBe('2026-05-01 09:30:12');
    expect(shortTime('2026-05-01T09:30:12Z')).toBe('2026-05-01 09:30:12');
    expect(shortTime(null)).toBeNull();
  });

  it('lists users with the columns a developer asked for', () => {
    const table = formatTable(USER_COLUMNS, [
      {
        id: 'u1',
        email: 'ann@example.com',
        name: 'Ann',
        registration_source: 'google',
        landing_type: 'one_pager',
        created_at: '2026-05-01T09:30:12.345Z',
      },
    ]);
    expect(table.split('\n')[0]?.split(/\s{2,}/)).toEqual([
      'id',
      'email',
      'name',
      'source',
      'landing_type',
      'created (UTC)',
    ]);
    expect(table.split('\n')[2]?.split(/\s{2,}/)).toEqual([
      'u1',
      'ann@example.com',
      'Ann',
      'google',
      'one_pager',
      '2026-05-01 09:30:12',
    ]);
  });

  it('lists subscriptions with a two-decimal price, a dash when there is none', () => {
    const row = {
      id: 'sub_1',
      email: null,
      plan_id: 'monthly_usd',
      gateway: 'braintree',
      state: 'past_due' as const,
      charged_minor: 8697,
      returned_minor: 0,
      currency: 'EUR',
      created_at: '2026-05-01T09:30:12.345Z',
    };
    const cells = (price: number | null) =>
      formatTable(SUBSCRIPTION_COLUMNS, [{ ...row, price_with_discount: price }])
        .split('\n')[2]
        ?.split(/\s{2,}/);
    expect(cells(6.9)).toEqual([
      'sub_1',
      '-',
      'monthly_usd',
      'braintree',
      'past_due',
      '6.90',
      '86.97 EUR',
      '0.00 EUR',
      '2026-05-01 09:30:12',
    ]);
    expect(cells(null)?.[5]).toBe('-');
  });

  it('lists each payment with its kind, amount in its currency, try and card', () => {
    const table = formatTable(PAYMENT_COLUMNS, [
      {
        subscription_id: 'sub_1',
        kind: 'recovery',
        amount_minor: 3999,
        currency: 'EUR',
        attempt: 2,
        card_brand: 'visa',
        occurred_at: '2026-05-01T09:30:12.345Z',
        event_id: 'evt_1',
      },
    ]);
    expect(table.split('\n')[0]?.split(/\s{2,}/)).toEqual([
      'subscription',
      'kind',
      'amount',
      'attempt',
      'card',
      'at (UTC)',
      'event id',
    ]);
    expect(table.split('\n')[2]?.split(/\s{2,}/)).toEqual([
      'sub_1',
      'recovery',
      '39.99 EUR',
      '2',
      'visa',
      '2026-05-01 09:30:12',
      'evt_1',
    ]);
  });

  it('lists lookups with yes/no validity and the consent SMS time', () => {
    const table = formatTable(LOOKUP_COLUMNS, [
      {
        phone: '+12025550143',
        valid: 1,
        country: 'US',
        consent_sms_at: '2026-05-01T09:30:12.345Z',
        created_at: '2026-05-01T09:30:12.345Z',
      },
      {
        phone: '+1202',
        valid: 0,
        country: null,
        consent_sms_at: null,
        created_at: '2026-05-01T09:31:00.000Z',
      },
    ]);
    const rows = table
      .split('\n')
      .slice(2)
      .map((line) => line.split(/\s{2,}/));
    expect(rows).toEqual([
      ['+12025550143', 'yes', 'US', '2026-05-01 09:30:12', '2026-05-01 09:30:12'],
      ['+1202', 'no', '-', '-', '2026-05-01 09:31:00'],
    ]);
  });
});
