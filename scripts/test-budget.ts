/**
 * The suite's budget and the end of a run (docs/testing.md, "The suite's budget"), pure: what
 * `npm test` may take, when a run fails for its time or its slow tests, and the whole run's
 * summary when it ran as two Vitest processes (scripts/test.ts). test/summary-reporter.ts ends
 * each Vitest process with them.
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

/** How many of the slowest files the summary names: where to look when the budget breaks. */
const SLOWEST_SHOWN = 10;

/**
 * Set by `npm test` when it runs the suite as two Vitest processes side by side (scripts/test.ts):
 * where this one writes its part (RunPart), which `npm test` sums into the whole run's summary
 * and verdict (wholeRunSummary) once both have ended.
 */
export const NPM_TEST_PART_FILE = 'NPM_TEST_PART_FILE';

/** A file's time, as the summary lists it. */
export interface FileTime {
  file: string;
  project: string;
  seconds: number;
}

/** What one Vitest process of a run split in two found: its files, tests and projects. */
export interface RunPart {
  files: FileTime[];
  counts: { passed: number; failed: number; skipped: number };
  unexplained: SlowTest[];
  /** Its projects' lines (projectLines). */
  projects: string[];
}

/** The slowest files' lines, the slowest first. */
export function slowestLines(files: readonly FileTime[]): string[] {
  return [...files]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_SHOWN)
    .map(
      ({ file, project, seconds }) => `  ${seconds.toFixed(1).padStart(7)} s  ${file} (${project})`,
    );
}

/**
 * The end of a run split in two (scripts/test.ts), from both parts: the ten slowest files of
 * either, each project's line, the budget's verdict over the whole wall time and every slow test
 * that does not say why, then the one plain line of counts CI reads.
 */
export function wholeRunSummary(
  parts: readonly RunPart[],
  run: { wallSeconds: number; startLoad: number | undefined },
): BudgetVerdict {
  const files = parts.flatMap((part) => part.files);
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const part of parts) {
    counts.passed += part.counts.passed;
    counts.failed += part.counts.failed;
    counts.skipped += part.counts.skipped;
  }
  const verdict = budgetVerdict({
    ...run,
    unexplained: parts.flatMap((part) => part.unexplained).sort((a, b) => b.seconds - a.seconds),
  });
  return {
    lines: [
      '',
      'The whole run. The slowest files:',
      ...slowestLines(files),
      "Their projects' files, added up, and each project from its first file to its last:",
      ...parts.flatMap((part) => part.projects),
      ...verdict.lines,
      '',
      `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    ],
    fails: verdict.fails,
  };
}

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
