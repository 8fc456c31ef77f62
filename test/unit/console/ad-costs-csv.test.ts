import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AD_COST_FIELDS,
  AD_COSTS_MAX_ERRORS,
  AD_COSTS_MAX_ROWS,
  type AdCost,
  checkAdCosts,
  csvRecords,
  readAdCostsCsv,
} from '../../../shared/console-api/ad-costs';
import { CURRENCIES } from '../../../shared/plans/currency';
import { decimalString } from '../../../shared/plans/money';
import { SOURCES } from '../../../shared/routing';
import { takeFirstTouch } from '../../../worker/routing/first-touch';

/**
 * The ad costs' file and JSON rows (shared/console-api/ad-costs.ts): a marketer's CSV export as
 * spreadsheets write it, each problem named by its line and field, and a file written from rows
 * read back as those rows.
 */

const TODAY = '2026-11-20';
const HEADER = 'day,source,campaign,currency,amount';

const rowsOf = (text: string) => {
  const read = readAdCostsCsv(text, TODAY);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.rows;
};

const messagesOf = (text: string) => {
  const read = readAdCostsCsv(text, TODAY);
  if (read.ok) throw new Error('the file was taken');
  return read.errors.map((error) => error.message);
};

describe('the CSV file', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF, a BOM, any column order and case', () => {
    const file = [
      '\uFEFFAmount,Currency,DAY,Source,campaign',
      '12.5,EUR,2026-11-02,meta,"Spring, ""big"" sale"',
      '980,JPY,2026-11-02,tiktok,',
      '"0.99",USD,2026-11-03,google,"  padded  "',
      '',
    ].join('\r\n');
    expect(rowsOf(file)).toEqual([
      {
        day: '2026-11-02',
        source: 'meta',
        campaign: 'Spring, "big" sale',
        currency: 'EUR',
        amountMinor: 1250,
      },
      { day: '2026-11-02', source: 'tiktok', campaign: '', currency: 'JPY', amountMinor: 980 },
      { day: '2026-11-03', source: 'google', campaign: 'padded', currency: 'USD', amountMinor: 99 },
    ]);
  });

  it('counts lines as the file has them, a quoted line break included', () => {
    const file = `${HEADER}\n2026-11-02,meta,"two\nlines",EUR,1\n\n2026-11-31,meta,x,EUR,1\n`;
    const read = readAdCostsCsv(file, TODAY);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.errors.map(({ line, field }) => ({ line, field }))).toEqual([
      { line: 2, field: 'campaign' },
      { line: 5, field: 'day' },
    ]);
  });

  it('names each problem by its line and field, in words', () => {
    const file = [
      HEADER,
      '2026-11-02,meta,spring,NOK,10',
      '2026-02-30,meta,spring,EUR,10',
      '2026-11-02,tiktok,spring,EUR,-10',
      '2026-11-02,google,spring,EUR,10.999',
      '2026-11-02,google,spring,JPY,10.5',
      '2026-11-03,meta,spring,EUR,"1,000.00"',
      '2026-11-04,facebook,spring,EUR,1',
      '2026-11-22,meta,spring,EUR,1',
      '2026-11-05,meta,spring,EUR,1',
      '2026-11-05,meta, spring ,USD,2',
      '2026-11-06,meta,spring,EUR',
    ].join('\n');
    expect(messagesOf(file)).toEqual([
      'Line 2, currency: "NOK" has no reporting rate: write one of USD, EUR, GBP, CAD, AUD, BRL, MXN, INR, JPY, PLN, TRY, CHF, SEK in capitals',
      'Line 3, day: "2026-02-30" is not a date: write it as YYYY-MM-DD, such as 2026-11-02',
      'Line 4, amount: "-10" is negative: a cost is 0 or more',
      'Line 5, amount: "10.999" has more than 2 decimals, which is all EUR has',
      'Line 6, amount: "10.5" has decimals, which JPY has none of',
      'Line 7, amount: "1,000.00" is not an amount: write digits with a dot before the decimals, such as 1234.50, with no currency sign or thousands separator',
      'Line 8, source: "facebook" is not a source visits are counted under: write one of meta, tiktok, google, organic, referral, other, direct (facebook and instagram are meta, youtube is google)',
      'Line 9, day: 2026-11-22 is in the future: costs are of days gone by',
      'Line 11: repeats line 10: 2026-11-05, meta and campaign "spring" again; keep one of them',
      'Line 12: has 4 fields where the header has 5: a campaign with a comma needs double quotes around it',
    ]);
  });

  it('takes tomorrow (a marketer east of UTC) and no later', () => {
    expect(rowsOf(`${HEADER}\n2026-11-21,meta,,USD,1`)).toHaveLength(1);
    expect(messagesOf(`${HEADER}\n2026-11-22,meta,,USD,1`)).toHaveLength(1);
  });

  it('refuses a header without a column, with one twice or one it does not read', () => {
    expect(messagesOf('day,source,currency,amount\n2026-11-02,meta,EUR,1')).toEqual([
      'Line 1, campaign: the header has no campaign column: it needs day,source,campaign,currency,amount',
    ]);
    expect(messagesOf(`${HEADER},Amount,cost\n`)).toEqual([
      'Line 1, amount: is a column twice: keep one',
      'Line 1: the column "cost" is not one we read: the columns are day,source,campaign,currency,amount',
    ]);
  });

  it('refuses an empty file, a header alone, an open quote and more rows than an upload takes', () => {
    expect(messagesOf('')).toEqual([
      'The file is empty: its first line names the columns, day,source,campaign,currency,amount',
    ]);
    expect(messagesOf(`${HEADER}\r\n`)).toEqual(['The file has its header and no rows']);
    expect(messagesOf(`${HEADER}\n2026-11-02,meta,"open,EUR,1\n2026-11-03,meta,x,EUR,1`)).toEqual([
      'Line 2: a double quote opens a field that never closes: end it with another "',
    ]);
    const line = '2026-11-02,meta,,EUR,1';
    const many = [HEADER, ...Array.from({ length: AD_COSTS_MAX_ROWS + 1 }, () => line)];
    expect(messagesOf(many.join('\n'))).toEqual([
      'The file has 5,001 rows and an upload takes at most 5,000: split it by days',
    ]);
  });

  it('lists at most AD_COSTS_MAX_ERRORS problems and counts the rest', () => {
    const bad = Array.from({ length: 150 }, () => '2026-11-02,meta,,EUR,-1');
    const read = readAdCostsCsv([HEADER, ...bad].join('\n'), TODAY);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.errors).toHaveLength(AD_COSTS_MAX_ERRORS);
    expect(read.errors[0]?.line).toBe(2);
    expect(read.more).toBe(50);
  });

  it('keeps a campaign as a visit’s first touch keeps its utm_campaign', () => {
    const tagged = '  Black Friday – DE ';
    const touch = takeFirstTouch({
      url: new URL(`https://funnel.test/?utm_campaign=${encodeURIComponent(tagged)}`),
      referrer: null,
      country: null,
      now: 0,
    });
    const [row] = rowsOf(`${HEADER}\n2026-11-02,meta,"${tagged}",EUR,1`);
    expect(row?.campaign).toBe(touch.utm.campaign);
    expect(messagesOf(`${HEADER}\n2026-11-02,meta,${'x'.repeat(101)},EUR,1`)).toEqual([
      "Line 2, campaign: is longer than 100 characters, which no visit's utm_campaign can be",
    ]);
  });
});

describe('the JSON rows', () => {
  it('are read by the same rules, named by their row', () => {
    const checked = checkAdCosts(
      [
        { day: '2026-11-02', source: 'meta', campaign: 'a', currency: 'EUR', amount: '1.5' },
        { day: '2026-11-02', source: 'meta', currency: 'EUR', amount: 7 },
        { day: '2026-11-02', source: 'meta', currency: 'EUR', amount: '1', cost: '2' },
      ],
      { today: TODAY },
    );
    expect(checked).toEqual({
      ok: false,
      more: 0,
      errors: [
        {
          line: 2,
          field: 'amount',
          message: 'Row 2, amount: "7" is not text: put it in double quotes',
        },
        {
          line: 3,
          field: null,
          message:
            'Row 3: has fields no row has (cost): a row has day, source, campaign, currency, amount',
        },
      ],
    });
    expect(checkAdCosts([{ day: '2026-11-02' }], { today: TODAY })).toMatchObject({
      errors: [
        { line: 1, field: 'source', message: 'Row 1, source: is missing' },
        { line: 1, field: 'currency' },
        { line: 1, field: 'amount' },
      ],
    });
  });
});

/** A CSV cell as a spreadsheet writes it: in quotes when it must be, its quotes doubled. */
const cell = (value: string) =>
  /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;

const day = fc
  .date({
    min: new Date('2020-01-01T00:00:00Z'),
    max: new Date('2026-11-21T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 10));

/** A campaign a visit could have: printable, trimmed, at most 100 characters, or none. */
const campaign = fc.oneof(
  fc.constant(''),
  fc
    .string({ minLength: 1, maxLength: 100, unit: 'grapheme' })
    .map((text) => text.trim())
    .filter((text) => /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u.test(text) && text.length <= 100),
);

const row = fc.record({
  day,
  source: fc.constantFrom(...SOURCES),
  campaign,
  currency: fc.constantFrom(...CURRENCIES),
  amountMinor: fc.nat(10 ** 12),
});

describe('a file written from rows', () => {
  it('reads back as those rows, whatever the column order, quoting and line ends', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(row, {
          minLength: 1,
          maxLength: 30,
          selector: (r) => JSON.stringify([r.day, r.source, r.campaign]),
        }),
        fc.shuffledSubarray([...AD_COST_FIELDS], { minLength: 5, maxLength: 5 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (rows: AdCost[], columns, end, bom) => {
          const fields = (r: AdCost): Record<string, string> => ({
            day: r.day,
            source: r.source,
            campaign: r.campaign,
            currency: r.currency,
            amount: decimalString(r.amountMinor, r.currency),
          });
          const lines = [
            columns.join(','),
            ...rows.map((r) => columns.map((column) => cell(fields(r)[column] ?? '')).join(',')),
          ];
          const text = `${bom ? '\uFEFF' : ''}${lines.join(end)}${end}`;
          expect(rowsOf(text)).toEqual(rows);
        },
      ),
    );
  });

  it('splits into the records that were written, whatever the cells hold', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.string({ unit: 'grapheme-composite' }), { minLength: 2, maxLength: 5 }),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        (records) => {
          const quotedAll = (value: string) => `"${value.replaceAll('"', '""')}"`;
          const text = records.map((cells) => cells.map(quotedAll).join(',')).join('\r\n');
          const read = csvRecords(text);
          expect('records' in read && read.records.map((record) => record.cells)).toEqual(records);
        },
      ),
    );
  });
});
