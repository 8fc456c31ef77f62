import { describe, expect, it } from 'vitest';
import {
  BUDGET_SECONDS,
  budgetVerdict,
  failuresOf,
  IDLE_LOAD,
  type SlowTest,
} from '../../scripts/suite-budget';
import { failureLines, saysWhySlow, spanText, testCounts } from '../summary-reporter';

/**
 * The end of `npm test` (test/summary-reporter.ts, docs/testing.md "The suite's budget"): a run
 * over 600 s, or with a test over 10 s that does not say why, fails on a machine idle at its
 * start and is only reported on a busy one.
 */

const SLOW: SlowTest = {
  file: 'test/browser/walk.test.ts',
  line: 12,
  name: 'walks every screen',
  seconds: 14.2,
};

describe('the budget', () => {
  it('passes a run within 600 s, saying its time beside the budget', () => {
    expect(budgetVerdict({ wallSeconds: 599.6, startLoad: 0.2, unexplained: [] })).toEqual({
      lines: ['npm test took 600 s wall; the budget is 600 s.'],
      fails: false,
    });
  });

  it('fails a run over 600 s on a machine idle at its start, and says so', () => {
    const verdict = budgetVerdict({ wallSeconds: 601, startLoad: 1.49, unexplained: [] });
    expect(verdict.fails).toBe(true);
    expect(verdict.lines).toEqual([
      'npm test took 601 s wall; the budget is 600 s.',
      'The run fails: it took more than 600 s, on a machine idle at its start (1-minute load 1.49, under 1.5).',
    ]);
  });

  it('reports a run over 600 s without failing it when the start load was 1.5 or more', () => {
    for (const startLoad of [IDLE_LOAD, 3.8]) {
      const verdict = budgetVerdict({ wallSeconds: 900, startLoad, unexplained: [] });
      expect(verdict.fails, String(startLoad)).toBe(false);
      expect(verdict.lines.at(-1)).toMatch(
        /^The run took more than 600 s, but the machine was not idle at its start \(1-minute load \d\.\d\d, not under 1\.5\): reported, not failed\.$/,
      );
    }
  });

  it('does not fail a run whose start load is unknown', () => {
    const verdict = budgetVerdict({ wallSeconds: 900, startLoad: undefined, unexplained: [] });
    expect(verdict.fails).toBe(false);
    expect(verdict.lines.at(-1)).toContain('(1-minute load unknown, not under 1.5)');
  });

  it('says nothing of a wall time outside npm test', () => {
    expect(budgetVerdict({ wallSeconds: undefined, startLoad: 0, unexplained: [] })).toEqual({
      lines: [],
      fails: false,
    });
    expect(BUDGET_SECONDS).toBe(600);
  });
});

describe('a test over 10 s says why', () => {
  it('fails an idle run with one that does not, naming its file, line and time', () => {
    const verdict = budgetVerdict({ wallSeconds: 300, startLoad: 0.5, unexplained: [SLOW] });
    expect(verdict).toEqual({
      lines: [
        'npm test took 300 s wall; the budget is 600 s.',
        'Tests over 10 s without a `// slow: <why>` comment above their it(:',
        '     14.2 s  test/browser/walk.test.ts:12 walks every screen',
        'The run fails: it has tests over 10 s that do not say why, on a machine idle at its start (1-minute load 0.50, under 1.5).',
      ],
      fails: true,
    });
  });

  it('names both breaches at once, and fails neither on a busy machine', () => {
    const busy = budgetVerdict({ wallSeconds: 700, startLoad: 2, unexplained: [SLOW] });
    expect(busy.fails).toBe(false);
    expect(busy.lines.at(-1)).toMatch(
      /^The run took more than 600 s and has tests over 10 s that do not say why, but/,
    );
  });

  it('says so of a test declared by a helper in another file, which no comment can explain', () => {
    const verdict = budgetVerdict({
      wallSeconds: undefined,
      startLoad: 0.5,
      unexplained: [{ ...SLOW, line: 0 }],
    });
    expect(verdict.lines[1]).toBe(
      '     14.2 s  test/browser/walk.test.ts (its it( is in another file, where no reason can stand) walks every screen',
    );
    expect(verdict.fails).toBe(true);
  });

  it('applies outside npm test too, to one file run on an idle machine', () => {
    expect(
      budgetVerdict({ wallSeconds: undefined, startLoad: 0.1, unexplained: [SLOW] }).fails,
    ).toBe(true);
  });

  const source = [
    "describe('the walk', () => {", // 1
    '  // slow: 24 screens, each opened in Chromium', // 2
    "  it('walks every screen', async () => {", // 3
    '  });', // 4
    '  // Opens the console and publishes: a reason, but not the word', // 5
    "  it('publishes', async () => {", // 6
    '  });', // 7
    '  // slow: starts a workerd of its own', // 8
    '  // and applies the migrations', // 9
    "  it('starts', async () => {", // 10
    '  });', // 11
    "  it('is long', async () => { // slow: 3,000 events written", // 12
    '  });', // 13
    '  // slow: a reason for the test above, parted from this one by code', // 14
    '  const visitor = 1;', // 15
    "  it('is parted', async () => {", // 16
    '  // slow:', // 17
    "  it('gives no reason', async () => {", // 18
    '});', // 19
  ];

  it('finds the reason in the comment lines right above the it(, or on its line', () => {
    expect(saysWhySlow(source, 3)).toBe(true);
    expect(saysWhySlow(source, 10)).toBe(true);
    expect(saysWhySlow(source, 12)).toBe(true);
  });

  it('does not take a comment without the word, one parted by code, or the word without a reason', () => {
    expect(saysWhySlow(source, 6)).toBe(false);
    expect(saysWhySlow(source, 16)).toBe(false);
    expect(saysWhySlow(source, 18)).toBe(false);
    expect(saysWhySlow(source, 1)).toBe(false);
  });
});

describe('a project’s span', () => {
  it('says its wall time and the processor-seconds the machine spent in it', () => {
    expect(spanText({ from: 1_000, to: 181_400, busyFrom: 5_000.2, busyTo: 5_362.6 })).toBe(
      ', 180 s wall, 362 processor-seconds',
    );
  });

  it('says its wall time alone where /proc cannot be read, and nothing for no span', () => {
    expect(spanText({ from: 0, to: 5_000, busyFrom: undefined, busyTo: undefined })).toBe(
      ', 5 s wall',
    );
    expect(spanText(undefined)).toBe('');
  });
});

describe('the last line’s counts', () => {
  const test = (state: string, name = 'a test', line = 3) => ({ name, line, state });

  it('counts each test by how it ended', () => {
    expect(
      testCounts([
        {
          file: 'a.test.ts',
          failed: false,
          tests: [test('passed'), test('passed'), test('skipped')],
        },
        { file: 'b.test.ts', failed: true, tests: [test('passed'), test('failed')] },
      ]),
    ).toEqual({ passed: 3, failed: 1, skipped: 1 });
  });

  it('counts a file that failed outside its tests, a hook timing out, as a failure', () => {
    expect(
      testCounts([
        { file: 'a.test.ts', failed: true, tests: [test('skipped'), test('skipped')] },
        { file: 'b.test.ts', failed: false, tests: [test('passed')] },
      ]),
    ).toEqual({ passed: 1, failed: 1, skipped: 2 });
  });
});

describe('the failures named at the end', () => {
  it('names each failed test by file, line and full name, and a file that failed outside them', () => {
    const lines = failureLines([
      {
        file: 'test/browser/pay.test.ts',
        failed: true,
        tests: [
          { name: 'the paywall > charges once', line: 41, state: 'failed' },
          { name: 'the paywall > shows the price', line: 12, state: 'passed' },
        ],
      },
      {
        file: 'test/cli/portal.test.ts',
        failed: true,
        tests: [{ name: 'lists', line: 9, state: 'skipped' }],
      },
      {
        file: 'test/unit/quiet.test.ts',
        failed: false,
        tests: [{ name: 'is', line: 0, state: 'failed' }],
      },
      {
        file: 'test/unit/fine.test.ts',
        failed: false,
        tests: [{ name: 'ok', line: 5, state: 'passed' }],
      },
    ]);
    expect(lines).toEqual([
      'Failed: test/browser/pay.test.ts:41 the paywall > charges once',
      'Failed: test/cli/portal.test.ts (outside its tests: a hook, or its import)',
      'Failed: test/unit/quiet.test.ts is',
    ]);
  });

  it('gathers them from both parts’ output, colours and all, once each', () => {
    const first =
      '\u001b[31m Failed: test/browser/pay.test.ts:41 charges once\u001b[39m\n 1 failed\n';
    const second =
      'Failed: test/unit/a.test.ts:3 adds\nFailed: test/browser/pay.test.ts:41 charges once\n';
    expect(failuresOf([first, second])).toEqual([
      'Failed: test/browser/pay.test.ts:41 charges once',
      'Failed: test/unit/a.test.ts:3 adds',
    ]);
    expect(failuresOf(['FAIL  test/unit/a.test.ts > adds\n'])).toEqual([]);
  });

  it('names thirty, and says how many more a run that broke everywhere had', () => {
    const many = Array.from(
      { length: 45 },
      (_, index) => `Failed: t.test.ts:${index + 1} t${index}`,
    );
    const named = failuresOf([many.join('\n')]);
    expect(named).toHaveLength(31);
    expect(named[29]).toBe('Failed: t.test.ts:30 t29');
    expect(named[30]).toBe('…and 15 more failures, named in the output above.');
  });
});
