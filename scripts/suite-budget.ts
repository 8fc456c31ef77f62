import { stripVTControlCharacters } from 'node:util';
import type { TreeSeconds } from './processor-time';

/**
 * `npm test`'s budget and what it says about a run's time, shared by its end (scripts/test.ts:
 * the whole run's wall time and processor time, after both its Vitest parts) and each part's
 * summary (test/summary-reporter.ts: its slowest files and slow tests). Pure, unit-tested in
 * test/unit/summary-reporter.test.ts and processor-time.test.ts.
 */

/** What `npm test` may take on an idle two-core machine, in seconds (docs/testing.md). */
export const BUDGET_SECONDS = 600;

/**
 * The machine's 1-minute load average at the run's start under which it counts as idle: on two
 * cores, another process keeping one of them busy is 1. Over it the run's times say more about
 * that process than about the suite, so the budget and the slow-test rule only report.
 */
export const IDLE_LOAD = 1.5;

/** A test taking longer than this alone says why in a `// slow: <why>` comment above its `it(`. */
export const SLOW_TEST_SECONDS = 10;

/** The cores the budget is set for: 600 s on them is this many processor seconds. */
const BUDGET_CORES = 2;

/** A test that took longer than SLOW_TEST_SECONDS, and where its `it(` is. */
export interface SlowTest {
  file: string;
  line: number;
  name: string;
  seconds: number;
}

/** What the end of a run says about its time, and whether that fails it. */
export interface BudgetVerdict {
  lines: string[];
  fails: boolean;
}

/**
 * The budget's rule (docs/testing.md, "The suite's budget"), pure: a run of `npm test` over
 * BUDGET_SECONDS, or with a test over SLOW_TEST_SECONDS that does not say why, fails when the
 * machine was idle at its start (load under IDLE_LOAD) and is only reported when it was not. A
 * run whose start load is unknown is not failed. `wallSeconds` is undefined outside `npm test`
 * (one file run with `npx vitest`), where only the slow-test rule applies.
 */
export function budgetVerdict(run: {
  wallSeconds: number | undefined;
  startLoad: number | undefined;
  unexplained: readonly SlowTest[];
}): BudgetVerdict {
  const { wallSeconds, startLoad, unexplained } = run;
  const idle = startLoad !== undefined && startLoad < IDLE_LOAD;
  const lines: string[] = [];
  const broken: string[] = [];
  if (wallSeconds !== undefined) {
    lines.push(
      `npm test took ${Math.round(wallSeconds)} s wall; the budget is ${BUDGET_SECONDS} s.`,
    );
    if (wallSeconds > BUDGET_SECONDS) broken.push(`took more than ${BUDGET_SECONDS} s`);
  }
  if (unexplained.length > 0) {
    lines.push(
      `Tests over ${SLOW_TEST_SECONDS} s without a \`// slow: <why>\` comment above their it(:`,
      ...unexplained.map(
        ({ file, line, name, seconds }) =>
          `  ${seconds.toFixed(1).padStart(7)} s  ${line > 0 ? `${file}:${line}` : `${file} (its it( is in another file, where no reason can stand)`} ${name}`,
      ),
    );
    broken.push(`has tests over ${SLOW_TEST_SECONDS} s that do not say why`);
  }
  if (broken.length === 0) return { lines, fails: false };
  const load = startLoad === undefined ? 'unknown' : startLoad.toFixed(2);
  if (idle) {
    lines.push(
      `The run fails: it ${broken.join(' and ')}, on a machine idle at its start (1-minute load ${load}, under ${IDLE_LOAD}).`,
    );
    return { lines, fails: true };
  }
  lines.push(
    `The run ${broken.join(' and ')}, but the machine was not idle at its start (1-minute load ${load}, not under ${IDLE_LOAD}): reported, not failed.`,
  );
  return { lines, fails: false };
}

/** A file's processor time, as its setup file measured it (test/browser/processor-seconds.ts). */
export interface FileProcessorTime {
  file: string;
  seconds: TreeSeconds;
}

const totalOf = ({ chromium, workerd, test, other, ended }: TreeSeconds) =>
  chromium + workerd + test + other + ended;

/**
 * What the cores did: the whole run's busy processor seconds beside what the budget allows on
 * BUDGET_CORES, and the browser files that cost the most, split by process. Unlike wall time
 * these do not grow when files share the cores, so two runs, or a file before and after a
 * change, compare like for like (on the same machine: a slower one counts more seconds).
 */
export function processorLines(run: {
  busySeconds: number | undefined;
  files: readonly FileProcessorTime[];
  shown: number;
}): string[] {
  const lines: string[] = [];
  if (run.busySeconds !== undefined) {
    lines.push(
      `The cores were busy ${Math.round(run.busySeconds)} processor-seconds during the run, whatever ran (${BUDGET_CORES} cores for ${BUDGET_SECONDS} s hold ${BUDGET_CORES * BUDGET_SECONDS}).`,
    );
  }
  if (run.files.length === 0) return lines;
  const all = run.files.reduce((sum, { seconds }) => sum + totalOf(seconds), 0);
  const costliest = [...run.files].sort((a, b) => totalOf(b.seconds) - totalOf(a.seconds));
  const figure = (seconds: number) => seconds.toFixed(1).padStart(7);
  lines.push(
    `The browser files cost ${Math.round(all)} processor-seconds; the costliest (Chromium, workerd, the test process, other, ended):`,
    ...costliest
      .slice(0, run.shown)
      .map(
        ({ file, seconds }) =>
          `  ${figure(totalOf(seconds))} s  ${file} (${[seconds.chromium, seconds.workerd, seconds.test, seconds.other, seconds.ended].map((part) => part.toFixed(1)).join(', ')})`,
      ),
  );
  return lines;
}

/** How many tests passed, failed and were skipped. */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** The plain last line of a run, which CI reads whatever the terminal's colours. */
export function countsLine({ passed, failed, skipped }: TestCounts): string {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/** What starts a line naming one failure, which npm test's end gathers from both its parts. */
const FAILURE_PREFIX = 'Failed: ';

/** How many failures the end of a run names; a run that broke everywhere says how many more. */
const FAILURES_SHOWN = 30;

/** A line naming one failure: where it is (a file, with its test's line) and what failed there. */
export function failureLine(where: string, what: string): string {
  return `${FAILURE_PREFIX}${where} ${what}`;
}

/**
 * The failure lines a run printed (failureLine), each once, and at most FAILURES_SHOWN of them
 * with a line saying how many more: what the end of npm test repeats above its counts, as CI
 * shows a run's last lines only and a part's own summary may be far above them.
 */
export function failuresOf(outputs: readonly string[]): string[] {
  const found = new Set<string>();
  for (const output of outputs) {
    for (const line of stripVTControlCharacters(output).split('\n')) {
      const trimmed = line.trim();
      if (trimmed.startsWith(FAILURE_PREFIX)) found.add(trimmed);
    }
  }
  const all = [...found];
  if (all.length <= FAILURES_SHOWN) return all;
  return [
    ...all.slice(0, FAILURES_SHOWN),
    `…and ${all.length - FAILURES_SHOWN} more failures, named in the output above.`,
  ];
}

const COUNTS_LINE = /^(\d+) passed, (\d+) failed, (\d+) skipped$/;

/** The last countsLine a run printed, or undefined when it printed none (it failed before its end). */
export function countsOf(output: string): TestCounts | undefined {
  const lines = stripVTControlCharacters(output)
    .split('\n')
    .map((line) => line.trim());
  for (const line of lines.reverse()) {
    const found = COUNTS_LINE.exec(line);
    if (found)
      return { passed: Number(found[1]), failed: Number(found[2]), skipped: Number(found[3]) };
  }
  return undefined;
}
