import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { machineBusySeconds } from '../scripts/processor-time';
import {
  budgetVerdict,
  countsLine,
  failureLine,
  processorLines,
  SLOW_TEST_SECONDS,
  type SlowTest,
  type TestCounts,
} from '../scripts/suite-budget';

/**
 * The variable `npm test` (scripts/test.ts) sets: the machine's 1-minute load average at its
 * start. `npm test` itself judges its wall time and prints its busy processor seconds, after
 * both its Vitest processes (scripts/test-parts.ts); a summary here is one part's.
 */
const NPM_TEST_START_LOAD = 'NPM_TEST_START_LOAD';

/** How many of the slowest files the summary names: where to look when the budget breaks. */
const SLOWEST_SHOWN = 10;

/** A file's end: where it is, whether it failed, and how each of its tests ended. */
export interface FileOutcome {
  file: string;
  failed: boolean;
  tests: readonly TestOutcome[];
}

/** A test's end: its name, the line of its it( (0 where unknown) and its state. */
export interface TestOutcome {
  name: string;
  line: number;
  state: string;
}

/**
 * How a run's tests ended, for its last line. A file that failed outside its tests (a hook that
 * threw or timed out, an import that failed) counts as one failure: its tests, never run, count
 * as skipped, and the line would otherwise say `0 failed` of a run that failed.
 */
export function testCounts(modules: readonly FileOutcome[]): TestCounts {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const { failed, tests } of modules) {
    for (const { state } of tests) {
      if (state === 'passed') counts.passed += 1;
      else if (state === 'failed') counts.failed += 1;
      else counts.skipped += 1;
    }
    if (failed && !tests.some(({ state }) => state === 'failed')) counts.failed += 1;
  }
  return counts;
}

/**
 * A line for each failed test, by file and line, and for each file that failed outside its tests:
 * the end of the run names them (scripts/test.ts repeats them above its counts), so a log cut to
 * its last lines still says what to run again.
 */
export function failureLines(modules: readonly FileOutcome[]): string[] {
  return modules.flatMap(({ file, failed, tests }) => {
    const failedTests = tests.filter(({ state }) => state === 'failed');
    if (failed && failedTests.length === 0)
      return [failureLine(file, '(outside its tests: a hook, or its import)')];
    return failedTests.map(({ name, line }) =>
      failureLine(line > 0 ? `${file}:${line}` : file, name),
    );
  });
}

/** A `// slow: <why>` comment: the word and a reason after it. */
const SLOW_REASON = /\/\/\s*slow:\s*\S/;

/**
 * Whether the test whose `it(` is on `line` (1-based) says why it is slow: a `// slow: <why>` on
 * that line or in the run of `//` comment lines right above it.
 */
export function saysWhySlow(source: readonly string[], line: number): boolean {
  if (SLOW_REASON.test(source[line - 1] ?? '')) return true;
  for (let index = line - 2; index >= 0; index -= 1) {
    const text = source[index]!.trim();
    if (!text.startsWith('//')) return false;
    if (SLOW_REASON.test(text)) return true;
  }
  return false;
}

/**
 * Ends the run with the ten slowest test files, the run's wall time against its budget, any test
 * over 10 s that does not say why, and one plain line, `N passed, N failed, N skipped`, that CI
 * reads whatever the terminal's colours. A file's time is what Vitest measured of it (collecting
 * and running its tests, its setup included), so a file that waits or starts a worker shows here
 * even where its tests are quick. The budget fails the run by its exit code (budgetVerdict).
 */
export default class SummaryReporter implements Reporter {
  private started = performance.now();
  private root = process.cwd();
  /** The load at the start of `npm test`, else at Vitest's own. */
  private startLoad = loadavg()[0];
  private startBusy = machineBusySeconds();
  /** How many files run at a time where a project does not say (vitest.config.ts, `--maxWorkers`). */
  private atATime = 1;
  /** When each project's first file started and its last ended, epoch ms. */
  private spans = new Map<string, ProjectSpan>();

  onInit(vitest: Vitest): void {
    this.started = performance.now();
    this.root = vitest.config.root;
    this.atATime = vitest.config.maxWorkers;
    const given = Number(process.env[NPM_TEST_START_LOAD]);
    this.startLoad =
      process.env[NPM_TEST_START_LOAD] && Number.isFinite(given) ? given : loadavg()[0];
    this.startBusy = machineBusySeconds();
  }

  onTestModuleStart(module: TestModule): void {
    const now = Date.now();
    const span = this.spans.get(module.project.name);
    if (span) span.from = Math.min(span.from, now);
    else {
      const busy = machineBusySeconds();
      this.spans.set(module.project.name, { from: now, to: now, busyFrom: busy, busyTo: busy });
    }
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name);
    if (!span) return;
    span.to = Math.max(span.to, Date.now());
    span.busyTo = machineBusySeconds();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const outcomes = testModules.map((module) => ({
      file: relative(this.root, module.moduleId),
      failed: module.state() === 'failed',
      tests: [...module.children.allTests()].map((test) => ({
        name: test.fullName,
        line: test.location?.line ?? 0,
        state: test.result().state,
      })),
    }));
    const counts = testCounts(outcomes);
    const slowest = testModules
      .map((module) => ({
        file: relative(this.root, module.moduleId),
        project: module.project.name,
        seconds: fileSeconds(module),
      }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST_SHOWN);
    const wall = (performance.now() - this.started) / 1000;
    const lines = slowest.map(
      ({ file, project, seconds }) => `  ${seconds.toFixed(1).padStart(7)} s  ${file} (${project})`,
    );
    console.log(
      `\nThe slowest files:\n${lines.join('\n')}\n` +
        `Their projects' files, added up, and each project from its first file to its last:\n${projectLines(testModules, this.spans, this.atATime)}\n` +
        `Vitest took ${wall.toFixed(0)} s wall for ${testModules.length} files.`,
    );
    const busyNow = machineBusySeconds();
    const processor = processorLines({
      // Under npm test, its own figure after both its parts (scripts/test.ts) says it.
      busySeconds:
        !process.env[NPM_TEST_START_LOAD] && busyNow !== undefined && this.startBusy !== undefined
          ? busyNow - this.startBusy
          : undefined,
      files: testModules.flatMap((module) => {
        const seconds = module.meta().processorSeconds;
        return seconds ? [{ file: relative(this.root, module.moduleId), seconds }] : [];
      }),
      shown: SLOWEST_SHOWN,
    });
    if (processor.length > 0) console.log(processor.join('\n'));
    // The wall time against the budget is npm test's own, after both its parts (scripts/test.ts).
    const verdict = budgetVerdict({
      wallSeconds: undefined,
      startLoad: this.startLoad,
      unexplained: this.unexplainedSlowTests(testModules),
    });
    if (verdict.lines.length > 0) console.log(verdict.lines.join('\n'));
    if (verdict.fails) process.exitCode = 1;
    const failures = failureLines(outcomes);
    console.log(
      `${failures.length > 0 ? `\n${failures.join('\n')}\n` : ''}\n${countsLine(counts)}`,
    );
  }

  /** The tests over SLOW_TEST_SECONDS whose source does not say why, slowest first. */
  private unexplainedSlowTests(testModules: ReadonlyArray<TestModule>): SlowTest[] {
    const sources = new Map<string, string[]>();
    const sourceOf = (file: string) => {
      let lines = sources.get(file);
      if (!lines) {
        lines = readFileSync(file, 'utf8').split('\n');
        sources.set(file, lines);
      }
      return lines;
    };
    const found: SlowTest[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const seconds = testSeconds(test);
        if (seconds <= SLOW_TEST_SECONDS) continue;
        // The line of its it( (includeTaskLocation, vitest.config.ts); without it, line 0, which
        // no comment can be above.
        const line = test.location?.line ?? 0;
        if (line > 0 && saysWhySlow(sourceOf(module.moduleId), line)) continue;
        found.push({
          file: relative(this.root, module.moduleId),
          line,
          name: test.name,
          seconds,
        });
      }
    }
    return found.sort((a, b) => b.seconds - a.seconds);
  }
}

/**
 * A project's time from its first file's start to its last file's end, in epoch ms, and the
 * machine's busy seconds then (machineBusySeconds), whatever else ran beside it.
 */
export interface ProjectSpan {
  from: number;
  to: number;
  busyFrom: number | undefined;
  busyTo: number | undefined;
}

/**
 * A project's span in words: its wall time and what the cores spent in it, the projects being
 * run one after another (vitest.config.ts, sequence.groupOrder); the build's check, which runs
 * beside the first group (scripts/test.ts), counts in that group's figure.
 */
export function spanText(span: ProjectSpan | undefined): string {
  if (!span) return '';
  const wall = `, ${((span.to - span.from) / 1000).toFixed(0)} s wall`;
  if (span.busyFrom === undefined || span.busyTo === undefined) return wall;
  return `${wall}, ${(span.busyTo - span.busyFrom).toFixed(0)} processor-seconds`;
}

/** Each project's files and the sum of their times, the most first: which tier to cut. */
function projectLines(
  testModules: ReadonlyArray<TestModule>,
  spans: ReadonlyMap<string, ProjectSpan>,
  defaultAtATime: number,
): string {
  const byProject = new Map<string, { files: number; seconds: number; atATime: number }>();
  for (const module of testModules) {
    const { name, config } = module.project;
    const sum = byProject.get(name) ?? {
      files: 0,
      seconds: 0,
      atATime: config.maxWorkers || defaultAtATime,
    };
    sum.files += 1;
    sum.seconds += fileSeconds(module);
    byProject.set(name, sum);
  }
  return [...byProject]
    .sort(([, a], [, b]) => b.seconds - a.seconds)
    .map(([project, { files, seconds, atATime }]) => {
      return `  ${seconds.toFixed(0).padStart(7)} s  ${project} (${files} files, ${atATime} at a time${spanText(spans.get(project))})`;
    })
    .join('\n');
}

/** A file's own time: setting it up, collecting its tests and running them. */
function fileSeconds(module: TestModule): number {
  const { setupDuration, collectDuration, duration } = module.diagnostic();
  return (setupDuration + collectDuration + duration) / 1000;
}

/** A test's own time, its hooks included; 0 for one that did not run. */
function testSeconds(test: TestCase): number {
  return (test.diagnostic()?.duration ?? 0) / 1000;
}
