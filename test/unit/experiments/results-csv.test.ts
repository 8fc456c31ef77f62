import { describe, expect, it } from 'vitest';
import type {
  MetricResult,
  ResultsAnswer,
  VariantResults,
} from '../../../shared/console-api/results';
import {
  RESULTS_CSV_COLUMNS,
  resultsCsv,
  SEGMENT_CSV_COLUMNS,
  segmentCsv,
} from '../../../worker/experiments/answer/results-csv';

/** The results as CSV (worker/experiments/answer/results-csv.ts). */

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
    overBudget: 0,
    unconfirmed: 0,
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
      '0',
      '0',
      'purchase',
      '',
      'true',
      '12',
      '0.12',
      ...Array(7).fill(''),
      '',
      // The split's results adjust nothing: its adjusted columns are empty.
      ...Array(8).fill(''),
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
      '0',
      '0',
      'revenue',
      'USD',
      'false',
      '12',
      String(0.12 / 100),
      String(-0.02 / 100),
      String((-0.02 - 0.05) / 100),
      String((-0.02 + 0.05) / 100),
      '-0.2',
      '-0.4',
      '0.2',
      '2.5e-10',
      'no_difference_yet',
      ...Array(8).fill(''),
      '0.52',
      'false',
    ]);
  });

  it('gives revenue in major units of its currency, beside the currency', () => {
    const revenue = (mean: number): MetricResult => ({
      ...metric('revenue', 25),
      mean,
      absoluteLift: 25,
      absoluteInterval: { lower: -100, upper: 150 },
    });
    const withRevenue = (mean: number): VariantResults => ({
      ...variant('lp17', false),
      metrics: [metric('purchase', -0.02), revenue(mean)],
    });
    const columns = (currency: string, mean: number) => {
      const [header, purchase, revenueRow] = parseCsv(
        resultsCsv({ ...answerWith(withRevenue(mean)), mainCurrency: currency }),
      );
      const at = (row: string[] | undefined, column: string) => row?.[header!.indexOf(column)];
      return {
        purchase: [at(purchase, 'currency'), at(purchase, 'mean')],
        revenue: ['currency', 'mean', 'absolute_lift', 'absolute_lower', 'absolute_upper'].map(
          (column) => at(revenueRow, column),
        ),
        relative: at(revenueRow, 'relative_lift'),
      };
    };
    // 58.25 cents a visitor is €0.5825, not 58.25; a rate has no currency.
    const euros = columns('EUR', 58.25);
    expect(euros.revenue).toEqual(['EUR', '0.5825', '0.25', '-1', '1.5']);
    expect(euros.purchase).toEqual(['', '0.12']);
    expect(euros.relative).toBe('250');
    // The yen has no minor unit: 500 is ¥500.
    expect(columns('JPY', 500).revenue).toEqual(['JPY', '500', '25', '-100', '150']);
  });

  it('writes each adjusted lift and its interval in the adjusted columns of its metric’s row, money in major units', () => {
    const adjusted = {
      absoluteLift: 20,
      absoluteInterval: { lower: -50, upper: 90 },
      relativeLift: 0.08,
      relativeInterval: { lower: -0.1, upper: 0.3 },
      pValue: 0.4,
      strata: 12,
      widthRatio: 0.9,
    };
    const withAdjusted = {
      ...variant('lp17', false),
      metrics: [
        { ...metric('purchase', -0.02), adjusted: null },
        { ...metric('revenue', 25), adjusted },
      ],
    };
    const [header, purchase, revenue, after] = parseCsv(resultsCsv(answerWith(withAdjusted)));
    const at = (row: string[] | undefined, column: string) => row?.[header!.indexOf(column)];
    const adjustedColumns = header!.filter((column) => column.startsWith('adjusted_'));
    const adjustedOf = (row: string[] | undefined) =>
      Object.fromEntries(adjustedColumns.map((column) => [column, at(row, column)]));
    // Beside the plain lift of the same row: revenue's money in dollars, as the plain lift's.
    expect(['metric', 'currency', 'relative_lift', 'verdict'].map((c) => at(revenue, c))).toEqual([
      'revenue',
      'USD',
      '250',
      'no_difference_yet',
    ]);
    expect(adjustedOf(revenue)).toEqual({
      adjusted_relative_lift: '0.08',
      adjusted_relative_lower: '-0.1',
      adjusted_relative_upper: '0.3',
      adjusted_absolute_lift: '0.2',
      adjusted_absolute_lower: '-0.5',
      adjusted_absolute_upper: '0.9',
      adjusted_p_value: '0.4',
      adjusted_width_ratio: '0.9',
    });
    // Empty for a metric that adjusts nothing yet, and no row of its own for any.
    expect(at(purchase, 'metric')).toBe('purchase');
    expect(Object.values(adjustedOf(purchase))).toEqual(adjustedColumns.map(() => ''));
    expect(after).toBeUndefined();
  });

  it('writes a price test’s revenue by currency after the metrics, each in its own currency', () => {
    const inCurrency = (currency: string, mean: number) => ({
      ...metric('revenue', 25),
      metric: 'mature_revenue',
      currency,
      mean,
      verdict: currency === 'JPY' ? ('better' as const) : ('worse' as const),
    });
    const priced = {
      ...variant('lp17', false),
      metrics: [metric('purchase', -0.02)],
      byCurrency: [inCurrency('USD', 389.8), inCurrency('JPY', 500)],
    };
    const [header, purchase, usd, jpy] = parseCsv(resultsCsv(answerWith(priced)));
    const at = (row: string[] | undefined, column: string) => row?.[header!.indexOf(column)];
    const cells = (row: string[] | undefined) =>
      ['metric', 'currency', 'mean', 'verdict'].map((column) => at(row, column));
    expect(at(purchase, 'metric')).toBe('purchase');
    expect(cells(usd)).toEqual(['mature_revenue_by_currency', 'USD', '3.898', 'worse']);
    expect(cells(jpy)).toEqual(['mature_revenue_by_currency', 'JPY', '500', 'better']);
  });

  it('adds an experiment’s guardrails after its metrics, each decline class as its own row', () => {
    const guardrail = (count: number, verdict: 'worse' | null) => ({
      count,
      rate: count / 100,
      relativeLift: verdict ? 2 : null,
      relativeInterval: verdict ? { lower: 0.5, upper: 3.5 } : null,
      verdict,
    });
    const withGuardrails = {
      ...variant('b', false),
      guardrails: {
        declines: guardrail(6, null),
        refunds: guardrail(1, null),
        declineClasses: [
          { ...guardrail(4, 'worse' as const), declineClass: 'authentication_failed' as const },
        ],
        cancellations: guardrail(3, null),
        renewed: guardrail(30, null),
        serverErrors: guardrail(7, 'worse'),
        clientErrors: guardrail(2, null),
      },
    };
    const rows = parseCsv(resultsCsv(answerWith(withGuardrails)));
    const column = (name: (typeof RESULTS_CSV_COLUMNS)[number]) =>
      RESULTS_CSV_COLUMNS.indexOf(name);
    const guardrailRows = rows.slice(1 + 5);
    expect(guardrailRows.map((row) => row[column('metric')])).toEqual([
      'declined',
      'declined:authentication_failed',
      'refunded',
      'cancelled',
      'renewed',
      'server_error',
      'client_error',
    ]);
    expect(guardrailRows[5]![column('count')]).toBe('7');
    expect(guardrailRows[5]![column('verdict')]).toBe('worse');
    const secure = guardrailRows[1]!;
    expect([
      secure[column('variant')],
      secure[column('count')],
      secure[column('mean')],
      secure[column('relative_lift')],
      secure[column('relative_lower')],
      secure[column('verdict')],
    ]).toEqual(['b', '4', '0.04', '2', '0.5', 'worse']);
  });

  it('writes a save offer test’s own rows only: shown, tapped keep, took the offer, cancelled and kept, then its net revenue per currency; no funnel row', () => {
    const kept = {
      count: 100,
      rate: 0.5,
      relativeLift: 0.25,
      relativeInterval: { lower: 0.05, upper: 0.45 },
      verdict: 'better' as const,
    };
    const withSaveOffer = {
      ...variant('b', false),
      saveOffer: {
        shown: 200,
        choseKeep: 50,
        tookAction: 40,
        cancelled: 100,
        kept,
        reasons: [{ reason: 'too_expensive', count: 30 }],
        netRevenue: [
          {
            currency: 'USD',
            amountMinor: 90_000,
            paying: 90,
            perShown: 450,
            relativeLift: -0.1,
            relativeInterval: { lower: -0.2, upper: 0 },
            verdict: 'no_difference_yet' as const,
          },
        ],
      },
    };
    const rows = parseCsv(resultsCsv(answerWith(withSaveOffer)));
    const column = (name: (typeof RESULTS_CSV_COLUMNS)[number]) =>
      RESULTS_CSV_COLUMNS.indexOf(name);
    // Its variant's funnel metrics and guardrails (variant() gives it five) read nothing for a
    // test counted on the subscriber's page: none is written.
    expect(
      rows
        .slice(1)
        .map((row) => [
          row[column('metric')],
          row[column('count')],
          row[column('mean')],
          row[column('relative_lift')],
          row[column('verdict')],
        ]),
    ).toEqual([
      ['save_offer_shown', '200', '1', '', ''],
      ['save_offer_chose_keep', '50', '0.25', '', ''],
      ['save_offer_took_action', '40', '0.2', '', ''],
      ['save_offer_cancelled', '100', '0.5', '', ''],
      ['save_offer_kept', '100', '0.5', '0.25', 'better'],
      // 4.50 dollars per subscription shown, from 90 that paid.
      ['save_offer_net_revenue', '90', '4.5', '-0.1', 'no_difference_yet'],
    ]);
    const revenue = rows.find((row) => row[column('metric')] === 'save_offer_net_revenue');
    expect(revenue?.[column('currency')]).toBe('USD');
  });

  it('adds failed renewals, recoveries and recovered revenue per currency in major units', () => {
    const withRecovery = {
      ...variant('b', false),
      exposed: 200,
      recovery: {
        renewalFailed: 10,
        recovered: 4,
        revenue: [
          { currency: 'USD', amountMinor: 16000, renewals: 4 },
          { currency: 'JPY', amountMinor: 3000, renewals: 1 },
        ],
      },
    };
    const rows = parseCsv(resultsCsv(answerWith(withRecovery)));
    const column = (name: (typeof RESULTS_CSV_COLUMNS)[number]) =>
      RESULTS_CSV_COLUMNS.indexOf(name);
    const recoveryRows = rows.slice(1 + 5);
    expect(
      recoveryRows.map((row) => [
        row[column('metric')],
        row[column('currency')],
        row[column('count')],
        row[column('mean')],
        row[column('verdict')],
      ]),
    ).toEqual([
      ['renewal_failed', '', '10', '0.05', ''],
      ['recovered', '', '4', '0.02', ''],
      // 160.00 USD over 200 exposed; yen have no minor digits.
      ['recovered_revenue', 'USD', '4', '0.8', ''],
      ['recovered_revenue', 'JPY', '1', '15', ''],
    ]);
  });

  it('adds page speed after the guardrails: each vital’s p75, samples, difference and verdict', () => {
    const withVitals = {
      ...variant('b', false),
      vitals: [
        {
          metric: 'lcp' as const,
          samples: 412,
          p75: 2400,
          rating: 'good' as const,
          difference: 310,
          interval: { lower: 120, upper: 505 },
          verdict: 'worse' as const,
        },
        {
          metric: 'inp' as const,
          samples: 0,
          p75: null,
          rating: null,
          difference: null,
          interval: null,
          verdict: null,
        },
      ],
    };
    const rows = parseCsv(resultsCsv(answerWith(withVitals)));
    const column = (name: (typeof RESULTS_CSV_COLUMNS)[number]) =>
      RESULTS_CSV_COLUMNS.indexOf(name);
    const [lcp, inp] = rows.slice(1 + 5);
    const read = (row: string[] | undefined) =>
      (
        [
          'metric',
          'currency',
          'count',
          'mean',
          'absolute_lift',
          'absolute_lower',
          'absolute_upper',
          'relative_lift',
          'verdict',
        ] as const
      ).map((name) => row?.[column(name)]);
    expect(read(lcp)).toEqual(['p75_lcp', '', '412', '2400', '310', '120', '505', '', 'worse']);
    // No sample yet: empty cells, not a p75 of 0.
    expect(read(inp)).toEqual(['p75_inp', '', '0', '', '', '', '', '', '']);
  });

  it('gives each segment level’s variant its verdict', () => {
    const csv = segmentCsv(2, {
      dimension: 'country',
      caution: 'segments find ideas and bugs; confirm a segment winner with a test aimed at it',
      hiddenLevels: 0,
      levels: [
        {
          level: 'US',
          variants: [
            {
              variant: 'a',
              exposed: 800,
              metrics: [
                {
                  metric: 'purchase',
                  mean: 0.1,
                  relativeLift: null,
                  relativeInterval: null,
                  verdict: null,
                },
              ],
            },
            {
              variant: 'b',
              exposed: 800,
              metrics: [
                {
                  metric: 'purchase',
                  mean: 0.2,
                  relativeLift: 1,
                  relativeInterval: { lower: 0.4, upper: 1.7 },
                  verdict: 'better',
                },
              ],
            },
          ],
        },
      ],
    });
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([...SEGMENT_CSV_COLUMNS]);
    expect(rows[0]?.at(-1)).toBe('verdict');
    expect(rows.slice(1).map((row) => row.at(-1))).toEqual(['', 'better']);
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
      expect(row?.[13]).toBe('-0.02');
    }
  });
});
