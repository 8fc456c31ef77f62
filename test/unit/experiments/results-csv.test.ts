import { describe, expect, it } from 'vitest';
import type { MetricResult, ResultsAnswer, VariantResults } from '../../../shared/console-api';
import { RESULTS_CSV_COLUMNS, resultsCsv } from '../../../worker/experiments/results-csv';

/** The results as CSV (worker/experiments/results-csv.ts). */

/** RFC 4180, read back: quoted fields may hold commas, quotes (doubled) and line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  expect(cell).toBe('');
  expect(row).toEqual([]);
  return rows;
}

function metric(name: MetricResult['metric'], lift: number | null): MetricResult {
  return {
    metric: name,
    primary: name === 'purchase',
    count: 12,
    mean: 0.12,
    absoluteLift: lift,
    absoluteInterval: lift === null ? null : { lower: lift - 0.05, upper: lift + 0.05 },
    relativeLift: lift === null ? null : lift * 10,
    relativeInterval: lift === null ? null : { lower: -0.4, upper: 0.2 },
    pValue: lift === null ? null : 2.5e-10,
    verdict: lift === null ? null : 'no_difference_yet',
  };
}

function variant(key: string, control: boolean): VariantResults {
  return {
    variant: key,
    control,
    share: 0.33,
    exposed: 100,
    bots: 2,
    metrics: (['lookup', 'signup', 'checkout', 'purchase', 'revenue'] as const).map((name) =>
      metric(name, control ? null : -0.02),
    ),
    otherRevenue: {},
  };
}

function answerWith(...variants: VariantResults[]): ResultsAnswer {
  return {
    phase: 3,
    phases: [3],
    configVersion: 'v7+v7',
    startedAt: null,
    control: 'default',
    primaryMetric: 'purchase',
    plannedPerArm: 10_000,
    mainCurrency: 'USD',
    revenueCap: 699,
    sampleRatio: { chiSquare: 0.4, pValue: 0.52, alarm: false },
    variants,
    liftOverDays: [],
  };
}

describe('the results CSV', () => {
  it('has the header and a row per variant and metric, CRLF-ended, nulls empty', () => {
    const csv = resultsCsv(answerWith(variant('default', true), variant('lp17', false)));
    expect(csv.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(csv);
    expect(header).toEqual([...RESULTS_CSV_COLUMNS]);
    expect(rows).toHaveLength(10);
    expect(rows[3]).toEqual([
      '3',
      'default',
      'true',
      '0.33',
      '100',
      '2',
      'purchase',
      'true',
      '12',
      '0.12',
      ...Array(7).fill(''),
      '',
      '0.52',
      'false',
    ]);
    expect(rows[9]).toEqual([
      '3',
      'lp17',
      'false',
      '0.33',
      '100',
      '2',
      'revenue',
      'false',
      '12',
      '0.12',
      '-0.02',
      String(-0.02 - 0.05),
      String(-0.02 + 0.05),
      '-0.2',
      '-0.4',
      '0.2',
      '2.5e-10',
      'no_difference_yet',
      '0.52',
      'false',
    ]);
  });

  it('quotes a field holding a comma, a quote or a line end, doubling its quotes', () => {
    const csv = resultsCsv(answerWith(variant('a,b "c"\nd', false)));
    expect(csv).toContain('"a,b ""c""\nd"');
    expect(parseCsv(csv)[1]?.[1]).toBe('a,b "c"\nd');
  });

  it('keeps a spreadsheet from reading a text field as a formula, never a number', () => {
    for (const key of ['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)', '\tx']) {
      const [, row] = parseCsv(resultsCsv(answerWith(variant(key, false))));
      expect(row?.[1]).toBe(`'${key}`);
      expect(row?.[10]).toBe('-0.02');
    }
  });
});
