import * as z from 'zod';
import { dayAfter, isCalendarDay } from '../calendar-day';
import { minorDigits } from '../minor-units';
import { CURRENCIES, type Currency } from '../plans/currency';
import { MAX_UTM_LENGTH, SOURCES, type Source, utmValue } from '../routing';

/**
 * What the ads cost, per day, source and campaign (CONSOLE_API.adCosts, worker/console/
 * ad-costs-route.ts), for the funnel report's cost per sign-up, per purchase and return on ad
 * spend: POST a CSV file (`text/csv`) or `{ rows }` as JSON, GET a range of days, DELETE one row.
 * Both forms of an import are read by the rules below, so the file and the API refuse alike,
 * each problem named by its line (or row) and field in words a marketer can act on.
 */

/** The CSV's columns, and a JSON row's fields. */
export const AD_COST_FIELDS = ['day', 'source', 'campaign', 'currency', 'amount'] as const;
export type AdCostField = (typeof AD_COST_FIELDS)[number];

/** At most this many rows an import: a year of a dozen campaigns a day is one upload. */
export const AD_COSTS_MAX_ROWS = 5000;
/** And at most this many bytes, in either form. */
export const AD_COSTS_MAX_BYTES = 1024 * 1024;
/** At most this many days a GET reads: a year and a month, for a year-on-year report. */
const AD_COSTS_MAX_DAYS = 400;
/** At most this many problems an answer lists: a file wrong on every line needs only a few. */
export const AD_COSTS_MAX_ERRORS = 100;

/** Digits, a dot and decimals: no sign, no thousands separator, no currency sign. */
const AMOUNT_PATTERN = /^\d{1,12}(\.\d+)?$/;

/** A row as kept and read (worker/ad-costs/ad-costs.ts). */
export interface AdCost {
  day: string;
  source: Source;
  /** utm_campaign as a visit's first touch keeps it (shared/routing.ts utmValue); '' for none. */
  campaign: string;
  currency: Currency;
  /** In the currency's minor units (cents, whole yen). */
  amountMinor: number;
}

/** One problem of an import. */
export interface AdCostError {
  /** The CSV's line (the header is line 1), or the JSON row's position from 1; null: the whole. */
  line: number | null;
  field: AdCostField | null;
  /** One sentence, starting with where: `Line 4, amount: …`. */
  message: string;
}

/** 200 to POST: every row written; `replaced` of them had a row of their day, source and campaign. */
export interface AdCostsImportedAnswer {
  ok: true;
  imported: number;
  replaced: number;
}

/** 400 to POST: nothing written. `more`: problems left out past AD_COSTS_MAX_ERRORS. */
export interface AdCostsInvalidAnswer {
  ok: false;
  error: 'invalid_ad_costs';
  errors: AdCostError[];
  more: number;
}

/** A row as GET answers it: as kept, whatever the rules of the day it was imported under. */
export interface AdCostRead {
  day: string;
  source: string;
  campaign: string;
  currency: string;
  amountMinor: number;
  /** The amount in major units: '12.50', '980' for JPY. */
  amount: string;
  /** In cents of `reportingCurrency` at the rates of `ratesDate`; null for a currency with none. */
  reportingMinor: number | null;
}

/** 200 to GET `?from=&to=`: the rows of those days (both included), by day, source, campaign. */
export interface AdCostsAnswer {
  ok: true;
  from: string;
  to: string;
  reportingCurrency: string;
  ratesDate: string;
  rows: AdCostRead[];
}

/** A value quoted for a message, cut short: a cell can be a whole pasted paragraph. */
function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * A field's own words for text it refuses. A field missing, or not text, falls through to
 * fieldProblem: the words of a bad value would quote nothing.
 */
const worded =
  (words: (input: string) => string) =>
  (issue: { input?: unknown }): string | undefined =>
    typeof issue.input === 'string' ? words(issue.input) : undefined;

/** A day of the calendar as YYYY-MM-DD, refused in words a marketer reads. */
export const calendarDay = z.string().refine(isCalendarDay, {
  error: worded(
    (input) => `${quoted(input)} is not a date: write it as YYYY-MM-DD, such as 2026-11-02`,
  ),
});

const source = z.enum(SOURCES, {
  error: worded(
    (input) =>
      `${quoted(input)} is not a source visits are counted under: write one of ${SOURCES.join(', ')} (facebook and instagram are meta, youtube is google)`,
  ),
});

/** Empty for no campaign; else what utmValue keeps of it, so it matches the visits' campaigns. */
const campaign = z
  .string()
  .refine((text) => text.trim().length <= MAX_UTM_LENGTH, {
    error: `is longer than ${MAX_UTM_LENGTH} characters, which no visit's utm_campaign can be`,
    abort: true,
  })
  .refine((text) => text.trim() === '' || utmValue(text) !== null, {
    error: 'holds a line break or another invisible character: retype it as in the ad’s link',
  });

/** A currency with a reporting rate: worker/experiments/results/reporting-currency.ts has one for each. */
const currency = z.enum(CURRENCIES, {
  error: worded(
    (input) =>
      `${quoted(input)} has no reporting rate: write one of ${CURRENCIES.join(', ')} in capitals`,
  ),
});

const amount = z.string().regex(AMOUNT_PATTERN, {
  error: worded((input) =>
    input.trim().startsWith('-')
      ? `${quoted(input)} is negative: a cost is 0 or more`
      : `${quoted(input)} is not an amount: write digits with a dot before the decimals, such as 1234.50, with no currency sign or thousands separator`,
  ),
});

/** `text` (AMOUNT_PATTERN) in minor units of a currency of `digits` decimals; null: more decimals. */
function minorUnitsOf(text: string, digits: number): number | null {
  const [whole = '0', decimals = ''] = text.split('.');
  if (decimals.length > digits) return null;
  return Number(whole + decimals.padEnd(digits, '0'));
}

/** One row of an import, as sent: every field text. */
const adCostRow = z
  .strictObject(
    { day: calendarDay, source, campaign: campaign.optional(), currency, amount },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `has fields no row has (${issue.keys.join(', ')}): a row has ${AD_COST_FIELDS.join(', ')}`
          : undefined,
    },
  )
  .transform((row, context): AdCost => {
    const digits = minorDigits(row.currency) ?? 2;
    const amountMinor = minorUnitsOf(row.amount, digits);
    if (amountMinor === null) {
      context.issues.push({
        code: 'custom',
        input: row.amount,
        path: ['amount'],
        message:
          digits === 0
            ? `${quoted(row.amount)} has decimals, which ${row.currency} has none of`
            : `${quoted(row.amount)} has more than ${digits} decimals, which is all ${row.currency} has`,
      });
      return z.NEVER;
    }
    const { day, source, currency } = row;
    return { day, source, campaign: utmValue(row.campaign ?? null) ?? '', currency, amountMinor };
  });

/**
 * POST as JSON, the documented API call, as the API's description gives it. The worker reads the
 * body as adCostsBody, then each row with adCostRow (checkAdCosts), so every problem of every row
 * is named at once rather than the first few a whole-body parse would stop at.
 */
export const adCostsRequest = z.strictObject({
  rows: z.array(adCostRow).min(1).max(AD_COSTS_MAX_ROWS),
});

/** POST as JSON, before its rows are checked: anything else is no import at all. */
export const adCostsBody = z.strictObject({ rows: z.array(z.unknown()) });

/** GET: the days to read, both included, at most AD_COSTS_MAX_DAYS of them. */
export const adCostsQuery = z
  .object({ from: calendarDay, to: calendarDay })
  .refine(
    ({ from, to }) =>
      isCalendarDay(from) &&
      isCalendarDay(to) &&
      from <= to &&
      dayAfter(from, AD_COSTS_MAX_DAYS - 1) >= to,
  );

/** DELETE: the one row to delete; no campaign is the row of no campaign. */
export const adCostKey = z
  .object({ day: calendarDay, source, campaign: campaign.optional() })
  .transform((key) => ({ ...key, campaign: utmValue(key.campaign ?? null) ?? '' }));

/** Problems that are not a field's own wording: a field missing or not text. */
const fieldProblem: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type' && issue.expected === 'object') {
    return `is not a row: a row is an object of ${AD_COST_FIELDS.join(', ')}`;
  }
  if (issue.input === undefined) return 'is missing';
  if (typeof issue.input !== 'string')
    return `${quoted(issue.input)} is not text: put it in double quotes`;
  return undefined;
};

/** What an import is: every row, or the problems found in it (nothing is written then). */
export type AdCostsChecked =
  | { ok: true; rows: AdCost[] }
  | { ok: false; errors: AdCostError[]; more: number };

/** `errors` in line order, at most AD_COSTS_MAX_ERRORS of them; `more` were left out before. */
function refused(errors: readonly AdCostError[], more = 0): AdCostsChecked & { ok: false } {
  const sorted = [...errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return {
    ok: false,
    errors: sorted.slice(0, AD_COSTS_MAX_ERRORS),
    more: more + Math.max(0, sorted.length - AD_COSTS_MAX_ERRORS),
  };
}

/** Where a problem is, as its message starts: `Line 4, amount` or `Row 4, amount`. */
function problem(
  word: 'Line' | 'Row',
  line: number | null,
  field: AdCostField | null,
  message: string,
): AdCostError {
  const where = [line === null ? null : `${word} ${line}`, field].filter(Boolean).join(', ');
  return { line, field, message: where ? `${where}: ${message}` : message };
}

const isField = (value: unknown): value is AdCostField =>
  (AD_COST_FIELDS as readonly unknown[]).includes(value);

const count = (n: number) => n.toLocaleString('en');

/**
 * The rows of an import (each sent as `inputs[i]`, found on line `lines[i]`, else row i + 1), or
 * every problem of them: a field's, a day more than a day ahead of `today` (YYYY-MM-DD, UTC: a
 * marketer east of UTC is already in tomorrow), and a day, source and campaign given twice,
 * naming both lines.
 */
export function checkAdCosts(
  inputs: readonly unknown[],
  options: { today: string; lines?: readonly number[] },
): AdCostsChecked {
  const word = options.lines ? 'Line' : 'Row';
  if (inputs.length === 0) return refused([problem(word, null, null, 'There are no rows')]);
  if (inputs.length > AD_COSTS_MAX_ROWS) {
    return refused([
      problem(
        word,
        null,
        null,
        `There are ${count(inputs.length)} rows and an import takes at most ${count(AD_COSTS_MAX_ROWS)}: split it by days`,
      ),
    ]);
  }
  const latest = dayAfter(options.today, 1);
  const errors: AdCostError[] = [];
  const rows: AdCost[] = [];
  const seen = new Map<string, number>();
  inputs.forEach((input, index) => {
    const line = options.lines?.[index] ?? index + 1;
    const parsed = adCostRow.safeParse(input, { error: fieldProblem });
    if (!parsed.success) {
      for (const { path, message } of parsed.error.issues) {
        errors.push(problem(word, line, isField(path[0]) ? path[0] : null, message));
      }
      return;
    }
    const row = parsed.data;
    rows.push(row);
    if (row.day > latest) {
      errors.push(
        problem(word, line, 'day', `${row.day} is in the future: costs are of days gone by`),
      );
    }
    const key = JSON.stringify([row.day, row.source, row.campaign]);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, line);
      return;
    }
    const named = row.campaign === '' ? 'no campaign' : `campaign ${quoted(row.campaign)}`;
    errors.push(
      problem(
        word,
        line,
        null,
        `repeats ${word.toLowerCase()} ${first}: ${row.day}, ${row.source} and ${named} again; keep one of them`,
      ),
    );
  });
  return errors.length > 0 ? refused(errors) : { ok: true, rows };
}

/** A CSV record: its cells, and the line it starts on (a quoted cell may span lines). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * RFC 4180's records, or the line of a quote never closed: cells split by commas, a cell in double
 * quotes may hold commas, line breaks and doubled quotes (`""`), lines end in CRLF or LF, and a
 * leading byte order mark (a spreadsheet's UTF-8 export) is no part of the first cell. Blank lines
 * are no records.
 */
export function csvRecords(text: string): { records: CsvRecord[] } | { unclosedQuote: number } {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  let quotedAt: number | null = null;
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') records.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (quotedAt !== null) {
      if (char === '"' && body[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quotedAt = null;
      else {
        if (char === '\n') line++;
        cell += char;
      }
    } else if (char === '"' && cell === '') quotedAt = line;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && body[index + 1] === '\n') index++;
      endRecord();
      line++;
      start = line;
    } else cell += char;
  }
  if (quotedAt !== null) return { unclosedQuote: quotedAt };
  endRecord();
  return { records };
}

/**
 * The header's columns by field, or the problems of line 1: each field once, in any order and
 * case, and no column we would not read (a `cost` beside `amount` would be a guess).
 */
function columnsOf(header: readonly string[]): Map<AdCostField, number> | AdCostError[] {
  const columns = new Map<AdCostField, number>();
  const errors: AdCostError[] = [];
  header.forEach((name, index) => {
    const field = name.trim().toLowerCase();
    if (!isField(field)) {
      errors.push(
        problem(
          'Line',
          1,
          null,
          `the column ${quoted(name)} is not one we read: the columns are ${AD_COST_FIELDS.join(',')}`,
        ),
      );
    } else if (columns.has(field)) {
      errors.push(problem('Line', 1, field, 'is a column twice: keep one'));
    } else columns.set(field, index);
  });
  for (const field of AD_COST_FIELDS) {
    if (!columns.has(field)) {
      errors.push(
        problem(
          'Line',
          1,
          field,
          `the header has no ${field} column: it needs ${AD_COST_FIELDS.join(',')}`,
        ),
      );
    }
  }
  return errors.length > 0 ? errors : columns;
}

/**
 * An uploaded CSV file's rows, or its problems: its header line names the columns
 * (AD_COST_FIELDS), each next line is a row, checked as checkAdCosts checks the JSON call's.
 */
export function readAdCostsCsv(text: string, today: string): AdCostsChecked {
  const read = csvRecords(text);
  if ('unclosedQuote' in read) {
    return refused([
      problem(
        'Line',
        read.unclosedQuote,
        null,
        'a double quote opens a field that never closes: end it with another "',
      ),
    ]);
  }
  const [header, ...records] = read.records;
  if (!header) {
    return refused([
      problem(
        'Line',
        null,
        null,
        `The file is empty: its first line names the columns, ${AD_COST_FIELDS.join(',')}`,
      ),
    ]);
  }
  const columns = columnsOf(header.cells);
  if (Array.isArray(columns)) return refused(columns);
  if (records.length > AD_COSTS_MAX_ROWS) {
    return refused([
      problem(
        'Line',
        null,
        null,
        `The file has ${count(records.length)} rows and an upload takes at most ${count(AD_COSTS_MAX_ROWS)}: split it by days`,
      ),
    ]);
  }
  const errors: AdCostError[] = [];
  const inputs: Record<AdCostField, string>[] = [];
  const lines: number[] = [];
  for (const { line, cells } of records) {
    if (cells.length !== header.cells.length) {
      errors.push(
        problem(
          'Line',
          line,
          null,
          `has ${cells.length} fields where the header has ${header.cells.length}: a campaign with a comma needs double quotes around it`,
        ),
      );
      continue;
    }
    const row = Object.fromEntries(
      AD_COST_FIELDS.map((field) => [field, cells[columns.get(field) ?? 0] ?? '']),
    ) as Record<AdCostField, string>;
    inputs.push(row);
    lines.push(line);
  }
  if (records.length === 0) {
    return refused([problem('Line', null, null, 'The file has its header and no rows')]);
  }
  if (inputs.length === 0) return refused(errors);
  const checked = checkAdCosts(inputs, { today, lines });
  if (errors.length === 0) return checked;
  return checked.ok ? refused(errors) : refused([...errors, ...checked.errors], checked.more);
}
